import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { authorizeUrl, countRows, pkcePair, registerPublicClient, TestBrowser } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

let stack: Stack;
let browser: TestBrowser;
let clientId: string;
let resource: string;
const { challenge } = pkcePair();

beforeAll(async () => {
  stack = await startStack({ services: ['payments-test'] });
  await stack.createUser({ email: 'grace@example.com' });
  browser = new TestBrowser(stack.url('auth'));
  await browser.signIn('grace@example.com', 'correct horse battery staple');
  clientId = await registerPublicClient(stack, ['https://claude.ai/api/mcp/auth_callback', 'http://localhost/callback', 'http://127.0.0.1/callback']);
  resource = stack.url('payments-test');
});
afterAll(async () => stack?.close());

function valid(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    client_id: clientId,
    redirect_uri: 'https://claude.ai/api/mcp/auth_callback',
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
    state: 'xyz',
    ...overrides,
  };
}

async function authorize(params: Record<string, string | undefined>) {
  const res = await fetch(authorizeUrl(stack, params), { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), headers: res.headers, body: await res.text() };
}

describe('Authorization request, phase 1: client and redirect URI (RFC 6749 §4.1.2.1, AS-7)', () => {
  it.each([
    ['a different path', 'https://claude.ai/api/mcp/other'],
    ['an extra path segment', 'https://claude.ai/api/mcp/auth_callback/x'],
    ['an extra query', 'https://claude.ai/api/mcp/auth_callback?x=1'],
    ['a different host', 'https://claude.com/api/mcp/auth_callback'],
    ['http instead of https', 'http://claude.ai/api/mcp/auth_callback'],
    ['a look-alike host', 'https://claude.ai.evil/api/mcp/auth_callback'],
    ['javascript:', 'javascript:alert(1)'],
    ['localhost for a registered 127.0.0.1 (no equivalence)', 'http://[::1]/callback'],
  ])('an unregistered redirect_uri (%s) gets a direct 400 page and no redirect', async (_name, redirectUri) => {
    const before = await countRows(stack, 'oauth_consent_requests');
    const res = await authorize(valid({ redirect_uri: redirectUri }));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toContain('invalid_request');
    expect(await countRows(stack, 'oauth_consent_requests')).toBe(before);
  });

  it('an unknown client_id gets a direct 400 and no redirect', async () => {
    const res = await authorize(valid({ client_id: 'ghc_nope' }));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.body).toContain('invalid_client');
  });

  it('a repeated parameter gets a direct 400', async () => {
    const url = `${authorizeUrl(stack, valid())}&client_id=${clientId}`;
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('the error page never reflects input unescaped (AS-26)', async () => {
    const res = await authorize(valid({ client_id: '<script>alert(1)</script>' }));
    expect(res.status).toBe(400);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('Loopback redirect URIs (RFC 8252 §7.3, AS-8)', () => {
  it.each([
    ['http://localhost:61000/callback'],
    ['http://127.0.0.1:33333/callback'],
    ['http://127.0.0.1/callback'],
  ])('%s matches a registration without a port', async (redirectUri) => {
    const res = await authorize(valid({ redirect_uri: redirectUri }));
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/oauth\/consent\?request=/);
  });

  it('localhost and 127.0.0.1 are not interchangeable', async () => {
    const other = await registerPublicClient(stack, ['http://localhost/callback']);
    const res = await authorize(valid({ client_id: other, redirect_uri: 'http://127.0.0.1:5000/callback' }));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
  });

  it('the port is the only thing that may differ', async () => {
    const res = await authorize(valid({ redirect_uri: 'http://127.0.0.1:5000/callback/' }));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
  });
});

describe('Authorization request, phase 2: errors go back to the client with state and iss (RFC 9207, AS-5, AS-13, AS-22)', () => {
  it.each([
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['an omitted method (would default to plain)', { code_challenge_method: undefined }, 'invalid_request'],
    ['an unknown method', { code_challenge_method: 'S512' }, 'invalid_request'],
    ['a challenge that is not S256-shaped', { code_challenge: 'short' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no resource (policy: refused)', { resource: undefined }, 'invalid_target'],
    ['a resource that is not an MCP server here', { resource: 'https://evil.example/mcp' }, 'invalid_target'],
    ['a resource with a fragment', { resource: `${'R'}#frag` }, 'invalid_target'],
    ['a resource with a trailing suffix', { resource: 'SUFFIX' }, 'invalid_target'],
    ['the bare origin as resource', { resource: 'ORIGIN' }, 'invalid_target'],
    ['a scope of another resource', { scope: 'gateway:invoke' }, 'invalid_scope'],
  ] as const)('%s → error=%s redirect', async (_name, overrides, code) => {
    const o: Record<string, string | undefined> = { ...overrides };
    if (o.resource === 'R#frag') o.resource = `${resource}#frag`;
    if (o.resource === 'SUFFIX') o.resource = `${resource}-other`;
    if (o.resource === 'ORIGIN') o.resource = new URL(resource).origin + '/';
    const before = await countRows(stack, 'oauth_consent_requests');
    const res = await authorize(valid(o));
    expect(res.status).toBe(302);
    const location = new URL(res.location!);
    expect(location.origin + location.pathname).toBe('https://claude.ai/api/mcp/auth_callback');
    expect(location.searchParams.get('error')).toBe(code);
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.getAll('iss')).toEqual([stack.config.issuer]);
    expect(location.searchParams.get('code')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await countRows(stack, 'oauth_consent_requests')).toBe(before);
  });

  it('a valid request goes to the consent page and responds no-store', async () => {
    const res = await authorize(valid());
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/oauth\/consent\?request=[A-Za-z0-9_-]{43}$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('POST works like GET (RFC 6749 §3.1)', async () => {
    const body = new URLSearchParams(Object.entries(valid()).filter(([, v]) => v !== undefined) as [string, string][]);
    const res = await fetch(`${stack.url('auth')}/oauth/authorize`, { method: 'POST', redirect: 'manual', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/oauth\/consent\?request=/);
  });
});

describe('Consent page (AS-21)', () => {
  it('shows the client name, the redirect host, the resource with its chain, and the scopes; refuses framing', async () => {
    const opened = await browser.openAuthorization(authorizeUrl(stack, valid({ scope: 'payments:read offline_access' })));
    expect(opened.status).toBe(200);
    expect(opened.page).toContain('Test client');
    expect(opened.page).toContain('<strong id="redirect-host">claude.ai</strong>');
    expect(opened.page).toContain(resource);
    expect(opened.page).toContain('TEST');
    expect(opened.page).toContain('data-scope="payments:read"');
    expect(opened.page).toContain('data-scope="offline_access"');
    const res = await browser.get(`/oauth/consent?request=${opened.requestId}`);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://claude.ai");
  });

  it('a visitor who is not signed in signs in first and comes back to consent', async () => {
    const fresh = new TestBrowser(stack.url('auth'));
    const res = await fresh.get(authorizeUrl(stack, valid()));
    const consent = await fresh.get(res.headers.get('location')!);
    expect(consent.status).toBe(303);
    const login = consent.headers.get('location')!;
    expect(login).toMatch(/^\/login\?next=%2Foauth%2Fconsent%3Frequest%3D/);
    await fresh.signIn('grace@example.com', 'correct horse battery staple');
    const back = await fresh.openAuthorization(decodeURIComponent(login.slice('/login?next='.length)));
    expect(back.status).toBe(200);
    expect(back.requestId).toBeTruthy();
  });

  it('a POST without a valid CSRF token gets 400 and leaves the request answerable', async () => {
    const opened = await browser.openAuthorization(authorizeUrl(stack, valid()));
    const grants = await countRows(stack, 'oauth_grants');
    const forged = await browser.decide(opened.requestId!, 'not-the-token', 'approve');
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
    expect(await countRows(stack, 'oauth_grants')).toBe(grants);
    const real = await browser.decide(opened.requestId!, opened.csrf!, 'approve');
    expect(real.status).toBe(303);
  });

  it('the transaction is single use', async () => {
    const opened = await browser.openAuthorization(authorizeUrl(stack, valid()));
    expect((await browser.decide(opened.requestId!, opened.csrf!, 'approve')).status).toBe(303);
    const grants = await countRows(stack, 'oauth_grants');
    const again = await browser.decide(opened.requestId!, opened.csrf!, 'approve');
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
    expect(await countRows(stack, 'oauth_grants')).toBe(grants);
  });

  it('an expired transaction gets 400 on both the page and the form, and creates no grant', async () => {
    const opened = await browser.openAuthorization(authorizeUrl(stack, valid()));
    const { sql } = await import('drizzle-orm');
    await stack.db.rows(sql`update oauth_consent_requests set expires_at = now() - interval '1 second'`);
    expect((await browser.get(`/oauth/consent?request=${opened.requestId}`)).status).toBe(400);
    const grants = await countRows(stack, 'oauth_grants');
    const res = await browser.decide(opened.requestId!, opened.csrf!, 'approve');
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await countRows(stack, 'oauth_grants')).toBe(grants);
  });

  it('a hostile client name is shown inert (AS-26)', async () => {
    const hostile = await registerPublicClient(stack, ['http://127.0.0.1/callback'], { client_name: '<img src=x onerror=alert(1)>"Evil' });
    const opened = await browser.openAuthorization(authorizeUrl(stack, valid({ client_id: hostile, redirect_uri: 'http://127.0.0.1:7/callback' })));
    expect(opened.status).toBe(200);
    expect(opened.page).not.toContain('<img src=x');
    expect(opened.page).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;Evil');
  });

  it('an unknown transaction gets 400', async () => {
    const opened = await browser.openAuthorization(authorizeUrl(stack, valid()));
    const res = await browser.decide('made-up', opened.csrf!, 'approve');
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('Deny redirects with error=access_denied, state and iss, and creates no grant', async () => {
    const opened = await browser.openAuthorization(authorizeUrl(stack, valid()));
    const grants = await countRows(stack, 'oauth_grants');
    const res = await browser.decide(opened.requestId!, opened.csrf!, 'deny');
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.getAll('iss')).toEqual([stack.config.issuer]);
    expect(location.searchParams.get('code')).toBeNull();
    expect(await countRows(stack, 'oauth_grants')).toBe(grants);
  });

  it('Approve redirects with code, state and exactly one iss (AS-22)', async () => {
    const location = await browser.approve(authorizeUrl(stack, valid()));
    expect(location.searchParams.get('code')).toMatch(/^ghac_/);
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.getAll('iss')).toEqual([stack.config.issuer]);
  });

  it('approving for client X does not approve client Y: every authorization shows consent again', async () => {
    const other = await registerPublicClient(stack, ['http://127.0.0.1/callback'], { client_name: 'Other client' });
    await browser.approve(authorizeUrl(stack, valid()));
    const opened = await browser.openAuthorization(authorizeUrl(stack, valid({ client_id: other, redirect_uri: 'http://127.0.0.1:9/callback' })));
    expect(opened.status).toBe(200);
    expect(opened.page).toContain('Other client');
    expect(opened.location).toBeNull();
  });
});
