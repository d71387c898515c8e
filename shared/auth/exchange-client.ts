import { createHash } from 'node:crypto';
import type { Session, SessionKind } from './session.ts';

export type ExchangeOutcome =
  | { ok: true; session: Session }
  | { ok: false; reason: 'invalid_token'; detail: string }
  | { ok: false; reason: 'live_opt_in_required'; chainId: string }
  | { ok: false; reason: 'auth_unavailable'; detail: string };

export interface ExchangeClientOptions {
  readonly authInternalUrl: string;
  readonly resource: string;
  readonly timeoutMs: number;
  /** Successful exchanges are reused this long per key and chain (seed 001: at most 60 s). */
  readonly cacheTtlSeconds: number;
  readonly maxCacheEntries?: number;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

export interface ExchangeClient {
  exchange(rawKey: string, chainId: string | null): Promise<ExchangeOutcome>;
  clear(): void;
}

interface ExchangeResponseBody {
  session_token: string;
  session: {
    sub: string;
    session_kind: SessionKind;
    chain_id: string | null;
    aud: string;
    scope?: string;
    key_id?: string;
    exp: number;
  };
}

/**
 * Trades a raw `yf_api_…` key at auth for a short-lived session bound to this server's resource
 * and chain. Only successes are cached, and never past the session's own expiry, so revoking a
 * key takes effect within the TTL. Concurrent misses for one key share a single exchange.
 * The cache is keyed by a hash of the key: the raw key is never held as a map key or logged.
 */
export function createExchangeClient(options: ExchangeClientOptions): ExchangeClient {
  const { authInternalUrl, resource, timeoutMs, cacheTtlSeconds } = options;
  const maxEntries = options.maxCacheEntries ?? 10_000;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { session: Session; expiresAtMs: number }>();
  const inFlight = new Map<string, Promise<ExchangeOutcome>>();

  async function callAuth(rawKey: string, chainId: string | null): Promise<ExchangeOutcome> {
    let response: Response;
    try {
      response = await doFetch(`${authInternalUrl}/auth/api-key/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: rawKey, resource, chain_id: chainId }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      return { ok: false, reason: 'auth_unavailable', detail: (err as Error).name };
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.status === 200) {
      const { session_token, session } = body as unknown as ExchangeResponseBody;
      return {
        ok: true,
        session: {
          subject: session.sub,
          kind: session.session_kind,
          chainId: session.chain_id,
          audience: session.aud,
          scopes: session.scope ? session.scope.split(' ') : [],
          ...(session.key_id ? { keyId: session.key_id } : {}),
          expiresAt: session.exp,
          sessionToken: session_token,
        },
      };
    }
    if (response.status === 401) {
      return { ok: false, reason: 'invalid_token', detail: String(body.error_description ?? 'API key rejected') };
    }
    if (response.status === 403 && body.code === 'live_connector_opt_in_required') {
      return { ok: false, reason: 'live_opt_in_required', chainId: String(body.chain_id) };
    }
    return { ok: false, reason: 'auth_unavailable', detail: `auth answered ${response.status}` };
  }

  return {
    async exchange(rawKey, chainId) {
      const cacheKey = `${createHash('sha256').update(rawKey).digest('base64url')}|${chainId ?? ''}`;
      const hit = cache.get(cacheKey);
      if (hit && hit.expiresAtMs > now()) return { ok: true, session: hit.session };
      if (hit) cache.delete(cacheKey);
      const pending = inFlight.get(cacheKey);
      if (pending) return pending;
      const promise = callAuth(rawKey, chainId).finally(() => inFlight.delete(cacheKey));
      inFlight.set(cacheKey, promise);
      const outcome = await promise;
      if (outcome.ok && cacheTtlSeconds > 0) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
        const expiresAtMs = Math.min(now() + cacheTtlSeconds * 1000, outcome.session.expiresAt * 1000);
        cache.set(cacheKey, { session: outcome.session, expiresAtMs });
      }
      return outcome;
    },
    clear: () => cache.clear(),
  };
}
