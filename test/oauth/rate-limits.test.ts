import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { countRows, obtainTokens, registerClient, registerPublicClient, TestBrowser, tokenRequest } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    services: ['gateway'],
    env: { OAUTH_REGISTER_RATE_LIMIT_PER_ADDRESS: '40', OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT: '5', OAUTH_TOKEN_RATE_LIMIT_PER_ACCOUNT: '3', OAUTH_RATE_LIMIT_WINDOW_SECONDS: '60' },
  });
  await stack.createUser({ email: 'one@example.com' });
  await stack.createUser({ email: 'two@example.com' });
});
afterAll(async () => stack?.close());

describe('Rate limits (AS-17; issue 3: per client and account as well as per address)', () => {
  it('the per-account limit stops one person without locking out another on the same address and client', async () => {
    const resource = stack.url('gateway');
    const clientId = await registerPublicClient(stack);
    const one = new TestBrowser(stack.url('auth'));
    await one.signIn('one@example.com', 'correct horse battery staple');
    const two = new TestBrowser(stack.url('auth'));
    await two.signIn('two@example.com', 'correct horse battery staple');
    // Account one: the code exchange and two refreshes use its 3 token requests.
    const { tokens } = await obtainTokens(stack, one, { resource, clientId });
    let refresh = tokens.refresh_token as string;
    for (let i = 0; i < 2; i++) {
      const res = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId });
      expect(res.status).toBe(200);
      refresh = res.body.refresh_token as string;
    }
    const limited = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.access_token).toBeUndefined();
    // Account two, same address, same client: unaffected.
    expect((await obtainTokens(stack, two, { resource, clientId })).tokens.access_token).toBeTruthy();
  });

  it('the per-client limit applies to a registered client, and never to a shared metadata-document client id', async () => {
    const clientId = await registerPublicClient(stack);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await tokenRequest(stack, { grant_type: 'authorization_code', code: 'ghac_x', redirect_uri: 'http://127.0.0.1/callback', code_verifier: 'v'.repeat(43), client_id: clientId })).status);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses[5]).toBe(429);
    for (let i = 0; i < 8; i++) {
      const res = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'https://claude.ai/oauth/mcp-oauth-client-metadata' });
      expect(res.status).not.toBe(429);
    }
  });

  it('registration is limited per address with 429, Retry-After and nothing stored', async () => {
    let last = { status: 0, body: {} as Record<string, unknown> };
    for (let i = 0; i < 41 && last.status !== 429; i++) last = await registerClient(stack, { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' });
    expect(last.status).toBe(429);
    expect(last.body.error).toBe('rate_limited');
    const before = await countRows(stack, 'oauth_clients');
    const res = await fetch(`${stack.url('auth')}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['https://app.example/cb'] }) });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(await countRows(stack, 'oauth_clients')).toBe(before);
  });
});
