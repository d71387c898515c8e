import { describe, expect, it } from 'vitest';
import { createExchangeClient } from './exchange-client.ts';

/** A stand-in for auth's exchange endpoint, injected as `fetch` (the client's I/O edge). */
function fakeAuth(answer: (call: number) => { status: number; body: unknown } | Error) {
  const calls: Array<{ url: string; body: Record<string, unknown> }> = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body)) });
    const a = answer(calls.length);
    if (a instanceof Error) throw a;
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

const session = (exp: number) => ({
  status: 200,
  body: { session_token: 't', session: { sub: 'u1', session_kind: 'connector', chain_id: '153', aud: 'http://r/mcp', scope: 'a b', key_id: 'k', exp } },
});

describe('createExchangeClient', () => {
  const base = { authInternalUrl: 'http://auth', resource: 'http://r/mcp', timeoutMs: 1000 };

  it('sends the key, this resource and the chain; caches successes per key and chain', async () => {
    let now = 1_000_000;
    const auth = fakeAuth(() => session(now / 1000 + 300));
    const client = createExchangeClient({ ...base, cacheTtlSeconds: 60, fetch: auth.fetchImpl, now: () => now });
    const first = await client.exchange('yf_api_a', '153');
    expect(first).toMatchObject({ ok: true, session: { subject: 'u1', kind: 'connector', scopes: ['a', 'b'] } });
    expect(auth.calls[0]).toEqual({ url: 'http://auth/auth/api-key/exchange', body: { api_key: 'yf_api_a', resource: 'http://r/mcp', chain_id: '153' } });
    await client.exchange('yf_api_a', '153');
    expect(auth.calls).toHaveLength(1);
    await client.exchange('yf_api_a', '151');
    expect(auth.calls).toHaveLength(2);
    now += 61_000;
    await client.exchange('yf_api_a', '153');
    expect(auth.calls).toHaveLength(3);
  });

  it('never caches past the session’s own expiry', async () => {
    let now = 1_000_000;
    const auth = fakeAuth(() => session(now / 1000 + 5));
    const client = createExchangeClient({ ...base, cacheTtlSeconds: 60, fetch: auth.fetchImpl, now: () => now });
    await client.exchange('yf_api_a', null);
    now += 6_000;
    await client.exchange('yf_api_a', null);
    expect(auth.calls).toHaveLength(2);
  });

  it('concurrent misses for one key share a single exchange', async () => {
    const auth = fakeAuth(() => session(Date.now() / 1000 + 300));
    const client = createExchangeClient({ ...base, cacheTtlSeconds: 60, fetch: auth.fetchImpl });
    const results = await Promise.all(Array.from({ length: 10 }, () => client.exchange('yf_api_a', null)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(auth.calls).toHaveLength(1);
  });

  it.each([
    [{ status: 401, body: { error: 'invalid_api_key', error_description: 'the API key has been revoked' } }, { ok: false, reason: 'invalid_token', detail: 'the API key has been revoked' }],
    [{ status: 403, body: { code: 'live_connector_opt_in_required', chain_id: '151' } }, { ok: false, reason: 'live_opt_in_required', chainId: '151' }],
    [{ status: 500, body: { error: 'server_error' } }, { ok: false, reason: 'auth_unavailable', detail: 'auth answered 500' }],
    [new TypeError('fetch failed'), { ok: false, reason: 'auth_unavailable', detail: 'TypeError' }],
  ])('maps %j and does not cache it', async (answer, expected) => {
    const auth = fakeAuth(() => answer);
    const client = createExchangeClient({ ...base, cacheTtlSeconds: 60, fetch: auth.fetchImpl });
    expect(await client.exchange('yf_api_a', '151')).toEqual(expected);
    await client.exchange('yf_api_a', '151');
    expect(auth.calls).toHaveLength(2);
  });
});
