import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenMinter } from '../../services/auth/src/domain/token-minter.ts';
import { ensureActiveSigningKey } from '../../services/auth/src/store/signing-key-store.ts';
import { wrongAudienceText } from '../../shared/auth/guard-texts.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { callMcp, obtainTokens, TestBrowser } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

let stack: Stack;
let browser: TestBrowser;
let tokens: Record<string, unknown>;
let userId: string;

beforeAll(async () => {
  stack = await startStack({ services: ['payments-test', 'gateway'], env: { OAUTH_REVOCATION_CACHE_SECONDS: '0' } });
  userId = (await stack.createUser({ email: 'matrix@example.com' })).id;
  browser = new TestBrowser(stack.url('auth'));
  await browser.signIn('matrix@example.com', 'correct horse battery staple');
  ({ tokens } = await obtainTokens(stack, browser, { resource: stack.url('payments-test') }));
});
afterAll(async () => stack?.close());

/** Signs with auth's real key, to build tokens the AS would never issue (RS-7). */
async function forge(claims: Record<string, unknown>, options: { ttlSeconds?: number; ageSeconds?: number } = {}) {
  const minter = createTokenMinter({ issuer: stack.config.issuer, signingKey: await ensureActiveSigningKey(stack.db.db), now: () => Date.now() - (options.ageSeconds ?? 0) * 1000 });
  const base = { sub: userId, session_kind: 'connector', token_use: 'access', chain_id: '153', scope: 'payments:read', client_id: 'ghc_x' };
  return (await minter.mint({ ...base, ...claims } as never, options.ttlSeconds ?? 3600)).token;
}

function expectChallenge(res: { status: number; headers: Headers; text: string }, prmPath: string) {
  expect(res.status).toBe(401);
  const challenge = res.headers.get('www-authenticate')!;
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain('error="invalid_token"');
  expect(challenge).toContain(`resource_metadata="`);
  expect(challenge).toContain(prmPath);
  expect(res.text).not.toContain(String(tokens.access_token));
}

describe('Credential matrix, OAuth columns (seed 001; RS-5, RS-6, RS-8)', () => {
  it('a token for this server: 200 with a JSON-RPC result', async () => {
    const res = await callMcp(stack.url('payments-test'), tokens.access_token as string);
    expect(res.status).toBe(200);
    expect(res.text).toContain('"result"');
  });

  it('a token for another server: 401 with seed 001\'s audience text, challenge naming that server', async () => {
    const res = await callMcp(stack.url('gateway'), tokens.access_token as string, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'health', arguments: {} } });
    expectChallenge(res, new URL(stack.url('gateway')).pathname);
    expect(JSON.parse(res.text)).toEqual({ error: wrongAudienceText(stack.url('gateway')) });
  });

  it('an expired token: 401 invalid_token naming the validation failure', async () => {
    const expired = await forge({ aud: stack.url('payments-test') }, { ttlSeconds: 3600, ageSeconds: 7200 });
    const res = await callMcp(stack.url('payments-test'), expired);
    expectChallenge(res, '/mcp');
    expect(JSON.parse(res.text).error).toContain('expired');
  });
});

describe('Audience boundaries (RFC 8707; RS-7)', () => {
  it.each([
    ['no audience', () => ({ aud: [] as string[] })],
    ['the bare origin', () => ({ aud: `${new URL(stack.url('payments-test')).origin}/` })],
    ['a trailing suffix', () => ({ aud: `${stack.url('payments-test')}-other` })],
  ])('a token for %s gets 401 on A', async (_name, claims) => {
    const res = await callMcp(stack.url('payments-test'), await forge(claims()));
    expectChallenge(res, '/mcp');
    expect(JSON.parse(res.text)).toEqual({ error: wrongAudienceText(stack.url('payments-test')) });
  });

  it('a well-signed access token whose id auth never issued is refused as revoked (fail closed)', async () => {
    const res = await callMcp(stack.url('payments-test'), await forge({ aud: stack.url('payments-test') }));
    expectChallenge(res, '/mcp');
    expect(JSON.parse(res.text).error).toContain('revoked');
  });

  it('a token in the query string is ignored (RS-9)', async () => {
    const res = await fetch(`${stack.url('payments-test')}?access_token=${tokens.access_token as string}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
  });
});
