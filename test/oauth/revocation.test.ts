import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { callMcp, obtainTokens, registerPublicClient, TestBrowser, tokenRequest } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

let stack: Stack;
let browser: TestBrowser;
let resource: string;

beforeAll(async () => {
  stack = await startStack({ services: ['gateway'], env: { OAUTH_REVOCATION_CACHE_SECONDS: '0' } });
  await stack.createUser({ email: 'rev@example.com' });
  browser = new TestBrowser(stack.url('auth'));
  await browser.signIn('rev@example.com', 'correct horse battery staple');
  resource = stack.url('gateway');
});
afterAll(async () => stack?.close());

async function revoke(form: Record<string, string>) {
  const res = await fetch(`${stack.url('auth')}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: res.status, body: await res.text() };
}

describe('Token revocation (RFC 7009, AS-24)', () => {
  it('revoking an access token stops it on the resource server and leaves its refresh token working', async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource });
    expect((await revoke({ token: tokens.access_token as string, token_type_hint: 'access_token', client_id: clientId })).status).toBe(200);
    const res = await callMcp(resource, tokens.access_token as string);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(JSON.parse(res.text).error).toContain('revoked');
    const refreshed = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    expect(refreshed.status).toBe(200);
    expect((await callMcp(resource, refreshed.body.access_token as string)).status).toBe(200);
  });

  it('revoking a refresh token revokes the grant: access token and refresh token both stop', async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource });
    expect((await revoke({ token: tokens.refresh_token as string, client_id: clientId })).status).toBe(200);
    expect((await callMcp(resource, tokens.access_token as string)).status).toBe(401);
    const refreshed = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it("client X cannot revoke client Y's tokens (200, nothing happens)", async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource });
    const other = await registerPublicClient(stack);
    expect((await revoke({ token: tokens.refresh_token as string, client_id: other })).status).toBe(200);
    expect((await revoke({ token: tokens.access_token as string, client_id: other })).status).toBe(200);
    expect((await callMcp(resource, tokens.access_token as string)).status).toBe(200);
    expect((await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId })).status).toBe(200);
  });

  it('an unknown token gets 200', async () => {
    const clientId = await registerPublicClient(stack);
    expect(await revoke({ token: 'not-a-token', client_id: clientId })).toEqual({ status: 200, body: '' });
  });

  it('a request without client_id gets 400 invalid_client and no token parameter gets invalid_request', async () => {
    const noClient = await revoke({ token: 'x' });
    expect(noClient.status).toBe(400);
    expect(JSON.parse(noClient.body).error).toBe('invalid_client');
    const noToken = await revoke({ client_id: 'x' });
    expect(noToken.status).toBe(400);
    expect(JSON.parse(noToken.body).error).toBe('invalid_request');
  });
});
