import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashOpaqueToken } from '../../services/auth/src/oauth/opaque-token.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { authorizeUrl, callMcp, countRows, pkcePair, registerClient, registerPublicClient, TestBrowser, tokenRequest } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

let stack: Stack;
let browser: TestBrowser;
let clientId: string;
let resource: string;
const redirectUri = 'http://127.0.0.1:40000/callback';

beforeAll(async () => {
  stack = await startStack({ services: ['payments-test', 'gateway'], env: { OAUTH_REVOCATION_CACHE_SECONDS: '0' } });
  await stack.createUser({ email: 'alan@example.com' });
  browser = new TestBrowser(stack.url('auth'));
  await browser.signIn('alan@example.com', 'correct horse battery staple');
  clientId = await registerPublicClient(stack);
  resource = stack.url('payments-test');
});
afterAll(async () => stack?.close());

/** A fresh code for `clientId`, with its verifier. */
async function freshCode(options: { client?: string; redirect?: string } = {}) {
  const { verifier, challenge } = pkcePair();
  const location = await browser.approve(
    authorizeUrl(stack, {
      client_id: options.client ?? clientId,
      redirect_uri: options.redirect ?? redirectUri,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource,
      state: 's',
    }),
  );
  return { code: location.searchParams.get('code')!, verifier };
}

async function codeRow(code: string) {
  const [row] = await stack.db.rows<{ consumed_at: Date | null }>(sql`select consumed_at from oauth_codes where code_hash = ${hashOpaqueToken(code)}`);
  return row;
}

function expectRefusal(res: { status: number; headers: Headers; body: Record<string, unknown> }, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.body.error).toBe(error);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(res.body.access_token).toBeUndefined();
}

describe('Token response (RFC 6749 §5.1, AS-14)', () => {
  it('is 200 JSON, no-store, Bearer, with expires_in, the granted scope and a refresh token by policy', async () => {
    const { code, verifier } = await freshCode();
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId, resource });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(String(res.body.token_type).toLowerCase()).toBe('bearer');
    expect(res.body.expires_in).toBe(3600);
    expect(res.body.scope).toBe('payments:read payments:propose');
    expect(res.body.refresh_token).toMatch(/^ghr_/);
    expect((await callMcp(resource, res.body.access_token as string)).status).toBe(200);
  });

  it('resource may be omitted at the token endpoint: the code is already bound to it', async () => {
    const { code, verifier } = await freshCode();
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId });
    expect(res.status).toBe(200);
    const claims = JSON.parse(Buffer.from((res.body.access_token as string).split('.')[1]!, 'base64url').toString());
    expect(claims.aud).toBe(resource);
  });
});

describe('PKCE at the token endpoint (RFC 7636 §4.6, AS-6)', () => {
  it('a wrong verifier gets 400 invalid_grant and the code stays unconsumed', async () => {
    const { code } = await freshCode();
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkcePair().verifier, client_id: clientId });
    expectRefusal(res, 400, 'invalid_grant');
    expect((await codeRow(code))!.consumed_at).toBeNull();
  });

  it('a missing verifier gets 400 invalid_grant', async () => {
    const { code } = await freshCode();
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId });
    expectRefusal(res, 400, 'invalid_grant');
    expect((await codeRow(code))!.consumed_at).toBeNull();
  });

  it('a verifier for a code stored without a challenge (downgrade) gets 400 invalid_grant', async () => {
    const { code } = await freshCode();
    await stack.db.rows(sql`update oauth_codes set code_challenge = null, code_challenge_method = null where code_hash = ${hashOpaqueToken(code)}`);
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkcePair().verifier, client_id: clientId });
    expectRefusal(res, 400, 'invalid_grant');
    expect(await countRows(stack, 'oauth_access_tokens')).toBeGreaterThanOrEqual(0);
    expect((await codeRow(code))!.consumed_at).toBeNull();
  });
});

describe('Authorization code grant (RFC 6749 §4.1.3, AS-9…AS-12)', () => {
  it('a reused code gets invalid_grant and the tokens it issued are revoked (AS-10)', async () => {
    const { code, verifier } = await freshCode();
    const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId };
    const first = await tokenRequest(stack, form);
    expect(first.status).toBe(200);
    expect((await callMcp(resource, first.body.access_token as string)).status).toBe(200);
    const second = await tokenRequest(stack, form);
    expectRefusal(second, 400, 'invalid_grant');
    const after = await callMcp(resource, first.body.access_token as string);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refresh = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, client_id: clientId });
    expectRefusal(refresh, 400, 'invalid_grant');
  });

  it('a redirect_uri different from the authorize one gets invalid_grant, code not consumed (AS-9)', async () => {
    const { code, verifier } = await freshCode();
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:40001/callback', code_verifier: verifier, client_id: clientId });
    expectRefusal(res, 400, 'invalid_grant');
    expect((await codeRow(code))!.consumed_at).toBeNull();
    const retry = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId });
    expect(retry.status).toBe(200);
  });

  it.each([
    ['another MCP server', 'GATEWAY'],
    ['an unknown resource', 'https://evil.example/mcp'],
    ['a resource with a fragment', 'FRAGMENT'],
  ])('resource=%s for a code bound to A gets invalid_target, code not consumed (AS-12)', async (_name, which) => {
    const { code, verifier } = await freshCode();
    const requested = which === 'GATEWAY' ? stack.url('gateway') : which === 'FRAGMENT' ? `${resource}#x` : which;
    const tokensBefore = await countRows(stack, 'oauth_access_tokens');
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId, resource: requested });
    expectRefusal(res, 400, 'invalid_target');
    expect((await codeRow(code))!.consumed_at).toBeNull();
    expect(await countRows(stack, 'oauth_access_tokens')).toBe(tokensBefore);
  });

  it('a code issued to client X and redeemed by client Y gets invalid_grant (AS-11)', async () => {
    const { code, verifier } = await freshCode();
    const other = await registerPublicClient(stack);
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: other });
    expectRefusal(res, 400, 'invalid_grant');
    expect((await codeRow(code))!.consumed_at).toBeNull();
  });

  it('an expired code gets invalid_grant (AS-11)', async () => {
    const { code, verifier } = await freshCode();
    await stack.db.rows(sql`update oauth_codes set expires_at = now() - interval '1 second' where code_hash = ${hashOpaqueToken(code)}`);
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId });
    expectRefusal(res, 400, 'invalid_grant');
  });

  it('an unknown client gets invalid_client', async () => {
    const { code, verifier } = await freshCode();
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: 'ghc_unknown' });
    expectRefusal(res, 400, 'invalid_client');
    expect((await codeRow(code))!.consumed_at).toBeNull();
  });

  it('an unknown code, an unsupported grant type and a JSON body are refused with their codes', async () => {
    expectRefusal(await tokenRequest(stack, { grant_type: 'authorization_code', code: 'ghac_nope', redirect_uri: redirectUri, code_verifier: pkcePair().verifier, client_id: clientId }), 400, 'invalid_grant');
    expectRefusal(await tokenRequest(stack, { grant_type: 'password', username: 'a', password: 'b', client_id: clientId }), 400, 'unsupported_grant_type');
    const json = await fetch(`${stack.url('auth')}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code' }) });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe('invalid_request');
  });
});

describe('Client authentication (RFC 6749 §2.3, §5.2, AS-19)', () => {
  let confidential: { client_id: string; client_secret: string };
  beforeAll(async () => {
    // token_endpoint_auth_method omitted: the RFC 7591 default, client_secret_basic (AS-18).
    const { status, body } = await registerClient(stack, { redirect_uris: ['http://127.0.0.1/callback'], client_name: 'Confidential', grant_types: ['authorization_code', 'refresh_token'] });
    expect(status).toBe(201);
    expect(body.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(body.client_secret_expires_at).toBe(0);
    confidential = body as typeof confidential;
  });
  const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` });

  it('the right secret over Basic works', async () => {
    const { code, verifier } = await freshCode({ client: confidential.client_id });
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, basic(confidential.client_id, confidential.client_secret));
    expect(res.status).toBe(200);
  });

  it('a wrong secret over Basic gets 401 invalid_client with a Basic challenge; the code is not consumed', async () => {
    const { code, verifier } = await freshCode({ client: confidential.client_id });
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, basic(confidential.client_id, 'wrong'));
    expectRefusal(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await codeRow(code))!.consumed_at).toBeNull();
  });

  it('a client registered for client_secret_basic cannot switch to client_secret_post', async () => {
    const { code, verifier } = await freshCode({ client: confidential.client_id });
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: confidential.client_id, client_secret: confidential.client_secret });
    expectRefusal(res, 400, 'invalid_client');
  });

  it('a confidential client without its secret, and a public client with a secret, are refused', async () => {
    const { code, verifier } = await freshCode({ client: confidential.client_id });
    expectRefusal(await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: confidential.client_id }), 400, 'invalid_client');
    const pub = await freshCode();
    expectRefusal(await tokenRequest(stack, { grant_type: 'authorization_code', code: pub.code, redirect_uri: redirectUri, code_verifier: pub.verifier }, basic(clientId, 'x')), 401, 'invalid_client');
  });

  it('a malformed Basic header gets 401 invalid_client', async () => {
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code: 'x', redirect_uri: redirectUri }, { authorization: 'Basic !!!' });
    expectRefusal(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('client_secret_post clients authenticate in the body', async () => {
    const { body } = await registerClient(stack, { redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'client_secret_post' });
    const { code, verifier } = await freshCode({ client: body.client_id as string });
    const wrong = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: body.client_id as string, client_secret: 'nope' });
    expectRefusal(wrong, 400, 'invalid_client');
    const right = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: body.client_id as string, client_secret: body.client_secret as string });
    expect(right.status).toBe(200);
  });
});

describe('Storage (AS-23)', () => {
  it('holds no plaintext code, refresh token, access token id or client secret; a known token is found by hash only', async () => {
    const { body: reg } = await registerClient(stack, { redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'client_secret_post' });
    const { code, verifier } = await freshCode();
    const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId });
    const refresh = res.body.refresh_token as string;
    const jti = JSON.parse(Buffer.from((res.body.access_token as string).split('.')[1]!, 'base64url').toString()).jti as string;
    const dump = JSON.stringify(
      await Promise.all(['oauth_clients', 'oauth_codes', 'oauth_refresh_tokens', 'oauth_access_tokens', 'oauth_grants', 'oauth_consent_requests'].map((t) => stack.db.rows(sql.raw(`select * from ${t}`)))),
    );
    for (const secret of [code, refresh, jti, reg.client_secret as string, res.body.access_token as string]) expect(dump).not.toContain(secret);
    expect(await stack.db.rows(sql`select 1 from oauth_refresh_tokens where token_hash = ${hashOpaqueToken(refresh)}`)).toHaveLength(1);
    expect(await stack.db.rows(sql`select 1 from oauth_access_tokens where jti_hash = ${hashOpaqueToken(jti)}`)).toHaveLength(1);
  });

  it('the purge removes expired rows', async () => {
    await stack.db.rows(sql`update oauth_refresh_tokens set expires_at = now() - interval '1 day'`);
    const purged = await stack.auth.oauth.purgeExpired();
    expect(purged.refreshTokens).toBeGreaterThan(0);
    expect(await countRows(stack, 'oauth_refresh_tokens')).toBe(0);
  });
});
