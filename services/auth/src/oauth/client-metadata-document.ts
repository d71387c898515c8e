import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isLoopbackAddress, isPublicAddress } from './public-address.ts';
import { checkRedirectUri } from './redirect-uri.ts';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; MCP 2025-11-25
 * "Client ID Metadata Documents"): a `client_id` that is an https URL names a JSON document,
 * served by the client's owner, that describes the client. Fetching a URL an anonymous caller
 * chose is a server-side request forgery risk, so the fetch is fenced: public addresses only
 * (checked at connect time, so DNS rebinding between check and use is not possible), no
 * redirects, a size cap and a timeout.
 */

export type CimdFailureReason =
  | 'not_https'
  | 'malformed_url'
  | 'fragment'
  | 'userinfo'
  | 'dot_segments'
  | 'no_path'
  | 'address_not_public'
  | 'fetch_failed'
  | 'timeout'
  | 'redirect'
  | 'http_status'
  | 'too_large'
  | 'not_json'
  | 'client_id_mismatch'
  | 'missing_redirect_uris'
  | 'invalid_redirect_uri'
  | 'secret_in_document'
  | 'unsupported_auth_method'
  | 'unsupported_grant_type'
  | 'unsupported_response_type';

export class CimdError extends Error {
  constructor(readonly reason: CimdFailureReason) {
    super(`client metadata document refused: ${reason}`);
  }
}

export interface CimdFetchOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Tests only: allow loopback hosts, and plain http on them. Private ranges stay refused. */
  readonly dangerouslyAllowLoopbackHosts: boolean;
  /** Injectable resolver (defaults to the system's). */
  readonly lookup?: typeof dnsLookup;
}

/** True when `client_id` is meant as a metadata-document URL rather than a registered id. */
export function looksLikeClientIdUrl(clientId: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(clientId);
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The URL-shape rules: https, a path, and no fragment, userinfo or dot-segments. */
export function parseClientIdUrl(clientId: string, allowLoopback: boolean): URL {
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(clientId)) throw new CimdError('malformed_url');
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new CimdError('malformed_url');
  }
  const loopbackHttp = allowLoopback && url.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) throw new CimdError('not_https');
  if (clientId.includes('#')) throw new CimdError('fragment');
  if (url.username || url.password || /^[a-z]+:\/\/[^/]*@/i.test(clientId)) throw new CimdError('userinfo');
  // The WHATWG parser removes dot-segments, so look at the raw string.
  const rawPath = clientId.replace(/^[a-z]+:\/\/[^/]*/i, '').split('?')[0]!;
  if (rawPath.split('/').some((seg) => ['.', '..'].includes(seg.replace(/%2e/gi, '.')))) {
    throw new CimdError('dot_segments');
  }
  if (url.pathname === '/' || url.pathname === '') throw new CimdError('no_path');
  return url;
}

function guardedLookup(options: CimdFetchOptions): LookupFunction {
  const resolve = options.lookup ?? dnsLookup;
  const allowed = (address: string) => isPublicAddress(address) || (options.dangerouslyAllowLoopbackHosts && isLoopbackAddress(address));
  return ((hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname, { ...lookupOptions, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      // Every answer must be acceptable: a name that resolves to one public and one private
      // address could otherwise be steered to the private one.
      if (addresses.length === 0 || !addresses.every((a) => allowed(a.address))) return callback(new CimdError('address_not_public'));
      if (lookupOptions.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as unknown as LookupFunction;
}

export interface FetchedDocument {
  readonly body: unknown;
  /** Seconds the document may be cached, from `Cache-Control: max-age` (0 when absent). */
  readonly maxAgeSeconds: number;
}

/** GETs the document at `url` within the fences. Every failure is a `CimdError`, never a 500. */
export function fetchClientMetadataDocument(url: URL, options: CimdFetchOptions): Promise<FetchedDocument> {
  // A literal IP address never goes through lookup, so check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$|:/.test(literal) && !(isPublicAddress(literal) || (options.dangerouslyAllowLoopbackHosts && isLoopbackAddress(literal)))) {
    return Promise.reject(new CimdError('address_not_public'));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        lookup: guardedLookup(options),
        timeout: options.timeoutMs,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.destroy();
          return reject(new CimdError('redirect'));
        }
        if (status !== 200) {
          res.destroy();
          return reject(new CimdError('http_status'));
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          res.destroy();
          return reject(new CimdError('too_large'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(new CimdError('too_large'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', () => reject(new CimdError('fetch_failed')));
        res.on('end', () => {
          if (size > options.maxBytes) return;
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return reject(new CimdError('not_json'));
          }
          const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(String(res.headers['cache-control'] ?? ''));
          const noStore = /no-store|no-cache/i.test(String(res.headers['cache-control'] ?? ''));
          resolve({ body, maxAgeSeconds: noStore || !maxAge ? 0 : Number(maxAge[1]) });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new CimdError('timeout'));
    }, options.timeoutMs);
    req.on('timeout', () => req.destroy(new CimdError('timeout')));
    req.on('error', (err) => reject(err instanceof CimdError ? err : new CimdError('fetch_failed')));
    req.on('close', () => clearTimeout(timer));
    req.end();
  });
}

export interface ClientMetadataDocument {
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUris: readonly string[];
  readonly grantTypes: readonly string[];
  readonly clientUri: string | null;
  readonly logoUri: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 500 ? v : null);

/**
 * The document's own rules: it names itself (`client_id` equal to the URL, byte for byte — a
 * confused deputy otherwise: a document at one URL claiming another client), it lists redirect
 * URIs that pass the registration rules, and it carries no secret (anyone can read it).
 */
export function validateClientMetadataDocument(url: string, body: unknown): ClientMetadataDocument {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new CimdError('not_json');
  const doc = body as Record<string, unknown>;
  if (doc.client_id !== url) throw new CimdError('client_id_mismatch');
  if ('client_secret' in doc || 'client_secret_expires_at' in doc) throw new CimdError('secret_in_document');
  const jwks = doc.jwks as { keys?: Array<Record<string, unknown>> } | undefined;
  if (jwks?.keys?.some((k) => 'd' in k || 'p' in k || 'k' in k)) throw new CimdError('secret_in_document');
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw new CimdError('unsupported_auth_method');
  if (!Array.isArray(doc.redirect_uris) || doc.redirect_uris.length === 0) throw new CimdError('missing_redirect_uris');
  const redirectUris = doc.redirect_uris.map((u) => {
    if (typeof u !== 'string' || !checkRedirectUri(u).ok) throw new CimdError('invalid_redirect_uri');
    return u;
  });
  const grantTypes = doc.grant_types === undefined ? ['authorization_code'] : doc.grant_types;
  if (!Array.isArray(grantTypes) || !grantTypes.includes('authorization_code') || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new CimdError('unsupported_grant_type');
  }
  const responseTypes = doc.response_types ?? ['code'];
  if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== 'code')) throw new CimdError('unsupported_response_type');
  return {
    clientId: url,
    clientName: str(doc.client_name) ?? new URL(url).host,
    redirectUris,
    grantTypes: grantTypes as string[],
    clientUri: str(doc.client_uri),
    logoUri: str(doc.logo_uri),
  };
}
