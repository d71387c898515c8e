import { describe, expect, it, vi } from 'vitest';
import { createAccessTokenRevocationCheck } from '../../shared/auth/create-service-guard.ts';
import type { GatehouseClaims } from '../../shared/auth/session.ts';

const claims = (overrides: Partial<GatehouseClaims> = {}): GatehouseClaims => ({
  iss: 'http://as',
  sub: 'u',
  aud: 'http://rs/mcp',
  exp: 0,
  iat: 0,
  jti: 'jti-1',
  session_kind: 'connector',
  token_use: 'access',
  ...overrides,
});
const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('createAccessTokenRevocationCheck (the guard\'s isAccessTokenRevoked hook)', () => {
  it('asks auth about OAuth access tokens and caches the answer for the configured time', async () => {
    let now = 0;
    const fetch = vi.fn(async () => answer({ revoked: false }));
    const check = createAccessTokenRevocationCheck({ authInternalUrl: 'http://as', timeoutMs: 100, cacheSeconds: 5, fetch, now: () => now });
    expect(await check(claims())).toBe(false);
    expect(await check(claims())).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);
    now = 6000;
    await check(claims());
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('never asks about other token uses (on-behalf-of tokens live minutes)', async () => {
    const fetch = vi.fn(async () => answer({ revoked: true }));
    const check = createAccessTokenRevocationCheck({ authInternalUrl: 'http://as', timeoutMs: 100, cacheSeconds: 0, fetch });
    expect(await check(claims({ token_use: 'obo' }))).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reports revoked, and treats an unreadable answer as revoked', async () => {
    expect(await createAccessTokenRevocationCheck({ authInternalUrl: 'http://as', timeoutMs: 100, cacheSeconds: 0, fetch: async () => answer({ revoked: true }) })(claims())).toBe(true);
    expect(await createAccessTokenRevocationCheck({ authInternalUrl: 'http://as', timeoutMs: 100, cacheSeconds: 0, fetch: async () => answer({}) })(claims())).toBe(true);
  });

  it('fails closed when auth cannot be asked: it throws, and the guard answers 503 (retry, do not re-authorize)', async () => {
    const check = createAccessTokenRevocationCheck({ authInternalUrl: 'http://as', timeoutMs: 100, cacheSeconds: 5, fetch: async () => { throw new TypeError('fetch failed'); } });
    await expect(check(claims())).rejects.toThrow(/revocation status unavailable/);
    const bad = createAccessTokenRevocationCheck({ authInternalUrl: 'http://as', timeoutMs: 100, cacheSeconds: 5, fetch: async () => answer({ error: 'x' }, 500) });
    await expect(bad(claims())).rejects.toThrow(/status 500/);
  });
});
