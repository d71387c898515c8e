import type { Config } from '../../../../shared/config.ts';
import type { Db } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import { findOAuthClient, type TokenEndpointAuthMethod } from '../store/oauth-client-store.ts';
import {
  CimdError,
  fetchClientMetadataDocument,
  looksLikeClientIdUrl,
  parseClientIdUrl,
  validateClientMetadataDocument,
  type FetchedDocument,
} from './client-metadata-document.ts';
import { OAuthError } from './oauth-error.ts';

/** A client as the endpoints see it, whichever way it became known. */
export interface OAuthClient {
  readonly clientId: string;
  readonly source: 'registered' | 'metadata_document';
  readonly clientName: string;
  readonly redirectUris: readonly string[];
  readonly grantTypes: readonly string[];
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  readonly clientSecretHash: string | null;
}

export interface ClientResolver {
  /** Throws `OAuthError('invalid_client')` for an unknown id or an unusable metadata document. */
  resolve(clientId: string): Promise<OAuthClient>;
}

const MAX_CACHED_DOCUMENTS = 1000;

export function createClientResolver(deps: {
  db: Db;
  config: Config;
  logger: Logger;
  /** Injectable for tests; defaults to the fenced fetch. */
  fetchDocument?: (url: URL) => Promise<FetchedDocument>;
  now?: () => number;
}): ClientResolver {
  const { db, logger } = deps;
  const cimd = deps.config.oauth.cimd;
  const now = deps.now ?? Date.now;
  const fetchDocument =
    deps.fetchDocument ??
    ((url: URL) =>
      fetchClientMetadataDocument(url, {
        timeoutMs: cimd.fetchTimeoutMs,
        maxBytes: cimd.maxBytes,
        dangerouslyAllowLoopbackHosts: cimd.dangerouslyAllowLoopbackHosts,
      }));
  // Successful documents only: a failure is never cached, so a fixed document works at once.
  const cache = new Map<string, { client: OAuthClient; expiresAtMs: number }>();

  async function resolveDocument(clientId: string): Promise<OAuthClient> {
    const cached = cache.get(clientId);
    if (cached && cached.expiresAtMs > now()) return cached.client;
    try {
      const url = parseClientIdUrl(clientId, cimd.dangerouslyAllowLoopbackHosts);
      const fetched = await fetchDocument(url);
      const doc = validateClientMetadataDocument(clientId, fetched.body);
      const client: OAuthClient = {
        clientId,
        source: 'metadata_document',
        clientName: doc.clientName,
        redirectUris: doc.redirectUris,
        grantTypes: doc.grantTypes,
        tokenEndpointAuthMethod: 'none',
        clientSecretHash: null,
      };
      const ttlSeconds = Math.min(fetched.maxAgeSeconds, cimd.cacheMaxSeconds);
      if (ttlSeconds > 0) {
        if (cache.size >= MAX_CACHED_DOCUMENTS) cache.delete(cache.keys().next().value!);
        cache.set(clientId, { client, expiresAtMs: now() + ttlSeconds * 1000 });
      }
      return client;
    } catch (err) {
      if (!(err instanceof CimdError)) throw err;
      logger.info({ reason: err.reason }, 'client metadata document refused');
      throw new OAuthError('invalid_client', `The client_id metadata document cannot be used (${err.reason})`, { reason: err.reason });
    }
  }

  return {
    async resolve(clientId) {
      if (looksLikeClientIdUrl(clientId)) return resolveDocument(clientId);
      const row = clientId.length <= 200 ? await findOAuthClient(db, clientId) : undefined;
      if (!row) throw new OAuthError('invalid_client', 'Unknown client_id', { reason: 'unknown_client' });
      return {
        clientId: row.clientId,
        source: 'registered',
        clientName: row.clientName ?? 'Unnamed client',
        redirectUris: row.redirectUris,
        grantTypes: row.grantTypes,
        tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
        clientSecretHash: row.clientSecretHash,
      };
    },
  };
}
