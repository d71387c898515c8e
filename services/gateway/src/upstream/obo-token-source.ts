import { z } from 'zod';

/**
 * On-behalf-of tokens for our own upstreams (DESIGN §6, RFC 8693 in spirit): the caller's
 * session token is traded at auth for a token whose audience is exactly one upstream, so the
 * caller's bearer never leaves the gateway and a token stolen from one upstream is useless at
 * another. Cached per (subject, audience) until shortly before expiry; concurrent misses share
 * one request.
 */
const OboResponse = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });

export interface OboTokenSource {
  tokenFor(input: { subject: string; sessionToken: string; audience: string }): Promise<string>;
}

export class OboUnavailableError extends Error {
  override name = 'OboUnavailableError';
}

/** Refresh this long before expiry so a token never expires in flight. */
const EXPIRY_MARGIN_MS = 30_000;

export function createOboTokenSource(options: {
  authInternalUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  now?: () => number;
  maxEntries?: number;
}): OboTokenSource {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<string, { token: string; refreshAtMs: number }>();
  const inflight = new Map<string, Promise<string>>();

  async function mint(sessionToken: string, audience: string): Promise<{ token: string; expiresInMs: number }> {
    let res: Response;
    try {
      res = await doFetch(`${options.authInternalUrl}/auth/obo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ subject_token: sessionToken, audience }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      throw new OboUnavailableError(`auth unreachable: ${(err as Error).name}`);
    }
    if (res.status !== 200) throw new OboUnavailableError(`auth refused the on-behalf-of exchange (${res.status})`);
    const body = OboResponse.safeParse(await res.json().catch(() => null));
    if (!body.success) throw new OboUnavailableError('auth answered the on-behalf-of exchange with an unexpected body');
    return { token: body.data.access_token, expiresInMs: body.data.expires_in * 1000 };
  }

  return {
    async tokenFor({ subject, sessionToken, audience }) {
      const key = `${subject}\u0000${audience}`;
      const hit = cache.get(key);
      if (hit && hit.refreshAtMs > now()) return hit.token;
      const running = inflight.get(key);
      if (running) return running;
      const p = mint(sessionToken, audience)
        .then(({ token, expiresInMs }) => {
          if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
          cache.set(key, { token, refreshAtMs: now() + Math.max(0, expiresInMs - EXPIRY_MARGIN_MS) });
          return token;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, p);
      return p;
    },
  };
}
