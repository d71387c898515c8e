import type { Config, ServiceEndpoint } from '../config.ts';
import { createExchangeClient } from './exchange-client.ts';
import { createGuard, type Guard } from './guard.ts';
import type { GatehouseClaims } from './session.ts';

/**
 * Asks auth whether an OAuth access token was revoked before it expired (a revoked grant, a
 * replayed code, a reused refresh token, "Connected apps" → Revoke). Answers are cached per
 * token id for OAUTH_REVOCATION_CACHE_SECONDS, which bounds how long a revoked token still
 * works. When auth cannot be asked the hook throws and the guard fails closed with 503 (retry,
 * do not re-authorize), never open.
 */
export function createAccessTokenRevocationCheck(options: {
  authInternalUrl: string;
  timeoutMs: number;
  cacheSeconds: number;
  fetch?: typeof fetch;
  now?: () => number;
}): (claims: GatehouseClaims) => Promise<boolean> {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { revoked: boolean; untilMs: number }>();
  return async (claims) => {
    // Only OAuth access tokens are individually revocable; other JWTs live minutes at most.
    if (claims.token_use !== 'access') return false;
    const cached = cache.get(claims.jti);
    if (cached && cached.untilMs > now()) return cached.revoked;
    let revoked: boolean;
    try {
      const response = await doFetch(`${options.authInternalUrl}/oauth/access-token-status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jti: claims.jti }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      revoked = ((await response.json()) as { revoked?: unknown }).revoked !== false;
    } catch (err) {
      // The guard maps this to its auth_unavailable answer (503, Retry-After: 5).
      throw new Error(`revocation status unavailable: ${(err as Error).message}`);
    }
    if (options.cacheSeconds > 0) {
      if (cache.size > 10_000) cache.clear();
      cache.set(claims.jti, { revoked, untilMs: now() + options.cacheSeconds * 1000 });
    }
    return revoked;
  };
}

/** Builds the guard for one MCP server from config: its resource, its chain, auth's address. */
export function createServiceGuard(config: Config, endpoint: ServiceEndpoint, chainId: string | null): Guard {
  const exchangeClient = createExchangeClient({
    authInternalUrl: config.authInternalUrl,
    resource: endpoint.resource,
    timeoutMs: config.authTimeoutMs,
    cacheTtlSeconds: config.exchangeCacheTtlSeconds,
  });
  return createGuard({
    resource: endpoint.resource,
    issuer: config.issuer,
    chainId,
    exchangeClient,
    jwksUrl: `${config.authInternalUrl}/.well-known/jwks.json`,
    jwksTimeoutMs: config.authTimeoutMs,
    isAccessTokenRevoked: createAccessTokenRevocationCheck({
      authInternalUrl: config.authInternalUrl,
      timeoutMs: config.authTimeoutMs,
      cacheSeconds: config.oauth.revocationCacheSeconds,
    }),
  });
}
