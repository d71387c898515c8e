import type { Request } from 'express';
import type { ClientResolver, OAuthClient } from './client-resolver.ts';
import { OAuthError } from './oauth-error.ts';
import { matchesHash } from './opaque-token.ts';

interface PresentedCredentials {
  readonly clientId: string;
  readonly secret: string | undefined;
  readonly method: 'basic' | 'post' | 'none';
}

/** RFC 6749 §2.3.1: Basic carries form-urlencoded id and secret. */
function parseBasic(header: string): { clientId: string; secret: string } | undefined {
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    return undefined;
  }
}

function presentedCredentials(req: Request): PresentedCredentials {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const bodyId = typeof body.client_id === 'string' ? body.client_id : undefined;
  const bodySecret = typeof body.client_secret === 'string' ? body.client_secret : undefined;
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const basic = parseBasic(authorization);
    if (!basic) throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials', { basicChallenge: true, reason: 'malformed_basic' });
    // RFC 6749 §2.3: a client MUST NOT use more than one authentication method per request.
    if (bodySecret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
    if (bodyId !== undefined && bodyId !== basic.clientId) throw new OAuthError('invalid_client', 'client_id does not match the authenticated client', { basicChallenge: true });
    return { clientId: basic.clientId, secret: basic.secret, method: 'basic' };
  }
  if (bodyId === undefined) throw new OAuthError('invalid_client', 'client_id is required', { reason: 'no_client_id' });
  return { clientId: bodyId, secret: bodySecret, method: bodySecret === undefined ? 'none' : 'post' };
}

/**
 * Authenticates the client at the token and revocation endpoints with the method it registered,
 * and only that one: a public client cannot present a secret, a `client_secret_basic` client
 * cannot switch to `_post`. Secrets are compared as hashes in constant time.
 */
export async function authenticateClient(req: Request, resolver: ClientResolver): Promise<OAuthClient> {
  const presented = presentedCredentials(req);
  const basicChallenge = presented.method === 'basic';
  let client: OAuthClient;
  try {
    client = await resolver.resolve(presented.clientId);
  } catch (err) {
    if (err instanceof OAuthError) throw new OAuthError('invalid_client', err.description, { basicChallenge, reason: err.options.reason ?? 'unknown_client' });
    throw err;
  }
  const expected = client.tokenEndpointAuthMethod === 'client_secret_basic' ? 'basic' : client.tokenEndpointAuthMethod === 'client_secret_post' ? 'post' : 'none';
  if (presented.method !== expected) {
    throw new OAuthError('invalid_client', `This client must authenticate with ${client.tokenEndpointAuthMethod}`, { basicChallenge, reason: 'auth_method_mismatch' });
  }
  if (expected !== 'none' && !(client.clientSecretHash && presented.secret !== undefined && matchesHash(presented.secret, client.clientSecretHash))) {
    throw new OAuthError('invalid_client', 'Client authentication failed', { basicChallenge, reason: 'wrong_secret' });
  }
  return client;
}

/** The client id a request names, for rate-limit keys (no authentication implied). */
export function claimedClientId(req: Request): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization) return parseBasic(authorization)?.clientId;
  const id = (req.body as Record<string, unknown> | undefined)?.client_id;
  return typeof id === 'string' ? id : undefined;
}
