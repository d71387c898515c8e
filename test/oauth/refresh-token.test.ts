import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashOpaqueToken } from '../../services/auth/src/oauth/opaque-token.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { callMcp, countRows, obtainTokens, registerPublicClient, TestBrowser, tokenRequest } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

let stack: Stack;
let browser: TestBrowser;
let resource: string;

beforeAll(async () => {
  stack = await startStack({ services: ['payments-test', 'payments-live', 'gateway'], env: { OAUTH_REVOCATION_CACHE_SECONDS: '0' } });
  await stack.createUser({ email: 'kyc@example.com', kyc: true });
  browser = new TestBrowser(stack.url('auth'));
  await browser.signIn('kyc@example.com', 'correct horse battery staple');
  resource = stack.url('payments-test');
});
afterAll(async () => stack?.close());

function expectRefusal(res: { status: number; headers: Headers; body: Record<string, unknown> }, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.body.error).toBe(error);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.body.access_token).toBeUndefined();
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('Refresh token rotation (OAuth 2.1 §4.3.1, RFC 6749 §6, AS-15)', () => {
  it('a refresh returns a new refresh token and a working access token', async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource });
    const res = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await callMcp(resource, res.body.access_token as string)).status).toBe(200);
  });

  it('strict reuse detection: the old token revokes the whole grant (access and refresh)', async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource });
    const rotated = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    expect(rotated.status).toBe(200);
    const reuse = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    expectRefusal(reuse, 400, 'invalid_grant');
    expectRefusal(await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token as string, client_id: clientId }), 400, 'invalid_grant');
    for (const token of [tokens.access_token, rotated.body.access_token] as string[]) expect((await callMcp(resource, token)).status).toBe(401);
    const [grant] = await stack.db.rows<{ revoked_reason: string }>(sql`select g.revoked_reason from oauth_grants g join oauth_refresh_tokens r on r.grant_id = g.id where r.token_hash = ${hashOpaqueToken(tokens.refresh_token as string)}`);
    expect(grant!.revoked_reason).toBe('refresh_token_reuse');
  });

  it('the rotated token keeps the grant\'s lifetime cap', async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource });
    await stack.db.rows(sql`update oauth_grants g set expires_at = now() + interval '1 hour' from oauth_refresh_tokens r where r.grant_id = g.id and r.token_hash = ${hashOpaqueToken(tokens.refresh_token as string)}`);
    const res = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    const [row] = await stack.db.rows<{ secs: number }>(sql`select extract(epoch from (expires_at - now()))::int as secs from oauth_refresh_tokens where token_hash = ${hashOpaqueToken(res.body.refresh_token as string)}`);
    expect(Number(row!.secs)).toBeLessThanOrEqual(3600);
  });
});

describe('Refresh request checks (RFC 6749 §6, RFC 8707 §2, AS-16)', () => {
  it('cannot widen scope (invalid_scope) but can narrow it', async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource, scope: 'payments:read' });
    const wider = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId, scope: 'payments:read payments:propose' });
    expectRefusal(wider, 400, 'invalid_scope');
    const { clientId: c2, tokens: t2 } = await obtainTokens(stack, browser, { resource });
    const narrower = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: t2.refresh_token as string, client_id: c2, scope: 'payments:read' });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('payments:read');
    expect(claimsOf(narrower.body.access_token as string).scope).toBe('payments:read');
  });

  it('a refresh with resource=B on an A grant gets invalid_target and leaves the token usable', async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource });
    const res = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId, resource: stack.url('gateway') });
    expectRefusal(res, 400, 'invalid_target');
    expect((await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId, resource })).status).toBe(200);
  });

  it('another client presenting the refresh token gets invalid_grant', async () => {
    const { tokens } = await obtainTokens(stack, browser, { resource });
    const other = await registerPublicClient(stack);
    expectRefusal(await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: other }), 400, 'invalid_grant');
  });

  it('an expired refresh token gets invalid_grant', async () => {
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource });
    await stack.db.rows(sql`update oauth_refresh_tokens set expires_at = now() - interval '1 second' where token_hash = ${hashOpaqueToken(tokens.refresh_token as string)}`);
    expectRefusal(await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId }), 400, 'invalid_grant');
  });

  it('a client registered without the refresh_token grant gets no refresh token', async () => {
    const clientId = await registerPublicClient(stack, ['http://127.0.0.1/callback'], { grant_types: ['authorization_code'] });
    const { tokens } = await obtainTokens(stack, browser, { resource, clientId });
    expect(tokens.refresh_token).toBeUndefined();
  });
});

describe('Live chain grants follow the live-money opt-in (seed 001)', () => {
  const live = () => stack.url('payments-live');

  it('consent for the live resource while opt-in is off redirects with invalid_target and creates no grant', async () => {
    const before = await countRows(stack, 'oauth_grants');
    await expect(obtainTokens(stack, browser, { resource: live() })).rejects.toThrow(/no code: .*error=invalid_target/);
    expect(await countRows(stack, 'oauth_grants')).toBe(before);
  });

  it('with opt-in on, the grant is bound to chain 151; turning it off refuses the refresh with 400 invalid_target', async () => {
    const user = await stack.auth.accountService.findUserByEmail('kyc@example.com');
    await stack.auth.accountService.setLiveConnectors(user!.id, true);
    const { clientId, tokens } = await obtainTokens(stack, browser, { resource: live() });
    expect(claimsOf(tokens.access_token as string)).toMatchObject({ aud: live(), chain_id: '151' });
    expect((await callMcp(live(), tokens.access_token as string)).status).toBe(200);
    await stack.auth.accountService.setLiveConnectors(user!.id, false);
    const refresh = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    expectRefusal(refresh, 400, 'invalid_target');
  });

  it('a live code whose opt-in was turned off before redemption gets invalid_target', async () => {
    const user = await stack.auth.accountService.findUserByEmail('kyc@example.com');
    await stack.auth.accountService.setLiveConnectors(user!.id, true);
    const clientId = await registerPublicClient(stack);
    const { pkcePair, authorizeUrl } = await import('./support/oauth-test-kit.ts');
    const { verifier, challenge } = pkcePair();
    const location = await browser.approve(authorizeUrl(stack, { client_id: clientId, redirect_uri: 'http://127.0.0.1:1/callback', response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', resource: live() }));
    await stack.auth.accountService.setLiveConnectors(user!.id, false);
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code: location.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:1/callback', code_verifier: verifier, client_id: clientId });
    expectRefusal(res, 400, 'invalid_target');
  });
});
