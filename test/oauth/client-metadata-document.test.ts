import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CimdError, fetchClientMetadataDocument, parseClientIdUrl, validateClientMetadataDocument } from '../../services/auth/src/oauth/client-metadata-document.ts';
import { createClientResolver } from '../../services/auth/src/oauth/client-resolver.ts';
import { OAuthError } from '../../services/auth/src/oauth/oauth-error.ts';
import { isPublicAddress } from '../../services/auth/src/oauth/public-address.ts';
import { loadConfig } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { claudeAiDocument, startDocumentHost, type Route } from './support/metadata-document-host.ts';
import { authorizeUrl, countRows, pkcePair, TestBrowser, tokenRequest } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

const CLAUDE_AI = 'https://claude.ai/oauth/mcp-oauth-client-metadata';

describe('Client ID URL shape (draft-ietf-oauth-client-id-metadata-document §3, AS-20)', () => {
  it('accepts claude.ai\'s client id', () => {
    expect(parseClientIdUrl(CLAUDE_AI, false).href).toBe(CLAUDE_AI);
  });
  it.each([
    ['http', 'http://claude.ai/oauth/mcp-oauth-client-metadata', 'not_https'],
    ['http on loopback without the allowance', 'http://127.0.0.1:1/doc', 'not_https'],
    ['a fragment', `${CLAUDE_AI}#x`, 'fragment'],
    ['userinfo', 'https://user@claude.ai/oauth/doc', 'userinfo'],
    ['dot-segments', 'https://claude.ai/oauth/../doc', 'dot_segments'],
    ['encoded dot-segments', 'https://claude.ai/oauth/%2e%2e/doc', 'dot_segments'],
    ['no path', 'https://claude.ai/', 'no_path'],
    ['whitespace', ' https://claude.ai/doc', 'malformed_url'],
  ])('refuses %s', (_name, url, reason) => {
    expect(() => parseClientIdUrl(url, false)).toThrow(expect.objectContaining({ reason }));
  });
});

describe('Client metadata document contents (AS-20)', () => {
  it.each([
    ['a client_id that differs from the URL', { client_id: 'https://claude.ai/other' }, 'client_id_mismatch'],
    ['a client_id differing only by a trailing slash', { client_id: `${CLAUDE_AI}/` }, 'client_id_mismatch'],
    ['a secret', { client_secret: 's3cret' }, 'secret_in_document'],
    ['a private JWK', { jwks: { keys: [{ kty: 'EC', d: 'private' }] } }, 'secret_in_document'],
    ['a secret auth method', { token_endpoint_auth_method: 'client_secret_basic' }, 'unsupported_auth_method'],
    ['no redirect_uris', { redirect_uris: [] }, 'missing_redirect_uris'],
    ['a javascript: redirect', { redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    ['an implicit grant', { grant_types: ['implicit'] }, 'unsupported_grant_type'],
  ])('refuses %s', (_name, overrides, reason) => {
    expect(() => validateClientMetadataDocument(CLAUDE_AI, claudeAiDocument(CLAUDE_AI, overrides))).toThrow(expect.objectContaining({ reason }));
  });
  it('refuses a non-object body', () => {
    expect(() => validateClientMetadataDocument(CLAUDE_AI, ['x'])).toThrow(CimdError);
  });
});

describe('isPublicAddress (SSRF)', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '224.0.0.1', 'not-an-ip'])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it.each(['8.8.8.8', '160.79.104.10', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('Fetching a metadata document (size cap, timeout, no redirects, public addresses only)', () => {
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  beforeAll(async () => {
    host = await startDocumentHost((path): ReturnType<Route> => {
      if (path === '/ok') return { body: JSON.stringify({ ok: true }), headers: { 'cache-control': 'max-age=60' } };
      if (path === '/big') return { body: JSON.stringify({ pad: 'x'.repeat(6000) }) };
      if (path === '/redirect') return { status: 302, headers: { location: '/ok' } };
      if (path === '/html') return { body: '<html>', headers: { 'content-type': 'text/html' } };
      if (path === '/hang') return { hang: true };
      return undefined;
    });
  });
  afterAll(async () => host?.close());
  const opts = { timeoutMs: 500, maxBytes: 5120, dangerouslyAllowLoopbackHosts: true };

  it('reads a document and its max-age', async () => {
    expect(await fetchClientMetadataDocument(new URL(`${host.origin}/ok`), opts)).toEqual({ body: { ok: true }, maxAgeSeconds: 60 });
  });
  it.each([
    ['over 5 KB', '/big', 'too_large'],
    ['a redirect', '/redirect', 'redirect'],
    ['non-JSON', '/html', 'not_json'],
    ['a 404', '/missing', 'http_status'],
    ['a host that never answers', '/hang', 'timeout'],
  ])('refuses %s', async (_name, path, reason) => {
    await expect(fetchClientMetadataDocument(new URL(`${host.origin}${path}`), opts)).rejects.toMatchObject({ reason });
  });
  it('refuses loopback without the allowance, by literal address and by name', async () => {
    const strict = { ...opts, dangerouslyAllowLoopbackHosts: false };
    await expect(fetchClientMetadataDocument(new URL(`${host.origin}/ok`), strict)).rejects.toMatchObject({ reason: 'address_not_public' });
    const port = new URL(host.origin).port;
    await expect(fetchClientMetadataDocument(new URL(`http://localhost:${port}/ok`), strict)).rejects.toMatchObject({ reason: 'address_not_public' });
  });
  it('refuses a name that resolves to a private address even with the loopback allowance', async () => {
    const lookup = ((_h: string, _o: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address: '10.0.0.5', family: 4 }])) as never;
    await expect(fetchClientMetadataDocument(new URL('https://internal.example/doc'), { ...opts, lookup })).rejects.toMatchObject({ reason: 'address_not_public' });
  });
});

describe('Resolving claude.ai\'s client id (cache per Cache-Control, no caching of failures)', () => {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const logger = createLogger('silent');

  it('resolves https://claude.ai/oauth/mcp-oauth-client-metadata and caches it for max-age', async () => {
    const fetchDocument = vi.fn(async () => ({ body: claudeAiDocument(CLAUDE_AI), maxAgeSeconds: 300 }));
    const resolver = createClientResolver({ db: undefined as never, config, logger, fetchDocument });
    const client = await resolver.resolve(CLAUDE_AI);
    expect(client).toMatchObject({ clientId: CLAUDE_AI, clientName: 'Claude', tokenEndpointAuthMethod: 'none', source: 'metadata_document' });
    expect(client.redirectUris).toEqual(['https://claude.ai/api/mcp/auth_callback', 'https://claude.com/api/mcp/auth_callback']);
    await resolver.resolve(CLAUDE_AI);
    expect(fetchDocument).toHaveBeenCalledTimes(1);
  });

  it('does not cache without max-age, nor a failure', async () => {
    let calls = 0;
    const fetchDocument = vi.fn(async () => {
      calls++;
      if (calls === 1) throw new CimdError('fetch_failed');
      return { body: claudeAiDocument(CLAUDE_AI), maxAgeSeconds: 0 };
    });
    const resolver = createClientResolver({ db: undefined as never, config, logger, fetchDocument });
    await expect(resolver.resolve(CLAUDE_AI)).rejects.toBeInstanceOf(OAuthError);
    await resolver.resolve(CLAUDE_AI);
    await resolver.resolve(CLAUDE_AI);
    expect(fetchDocument).toHaveBeenCalledTimes(3);
  });
});

describe('Client ID Metadata Documents end to end (MCP 2025-11-25, CC-3, CC-4)', () => {
  let stack: Stack;
  let host: Awaited<ReturnType<typeof startDocumentHost>>;
  let browser: TestBrowser;
  const docs = new Map<string, { body: string; status?: number; headers?: Record<string, string> }>();

  beforeAll(async () => {
    host = await startDocumentHost((path) => docs.get(path));
    stack = await startStack({ services: ['payments-test'], env: { DANGEROUSLY_ALLOW_LOOPBACK_CIMD_HOSTS: 'true', OAUTH_REVOCATION_CACHE_SECONDS: '0', CIMD_FETCH_TIMEOUT_MS: '1000' } });
    await stack.createUser({ email: 'cimd@example.com' });
    browser = new TestBrowser(stack.url('auth'));
    await browser.signIn('cimd@example.com', 'correct horse battery staple');
  });
  afterAll(async () => {
    await stack?.close();
    await host?.close();
  });

  function serve(path: string, doc: Record<string, unknown> | string, extra: { status?: number; headers?: Record<string, string> } = {}): string {
    docs.set(path, { body: typeof doc === 'string' ? doc : JSON.stringify(doc), ...extra });
    return `${host.origin}${path}`;
  }

  it('claude.ai\'s flow: document client, claude.ai callback captured, PRM scopes plus offline_access, refresh works (CC-3)', async () => {
    const clientId = serve('/oauth/mcp-oauth-client-metadata', claudeAiDocument(`${host.origin}/oauth/mcp-oauth-client-metadata`));
    const resource = stack.url('payments-test');
    const prm = await (await fetch(`${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`)).json();
    const { verifier, challenge } = pkcePair();
    const callback = await browser.approve(
      authorizeUrl(stack, {
        client_id: clientId,
        redirect_uri: 'https://claude.ai/api/mcp/auth_callback',
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource,
        scope: [...prm.scopes_supported, 'offline_access'].join(' '),
        state: 'claude-state',
      }),
    );
    expect(callback.origin + callback.pathname).toBe('https://claude.ai/api/mcp/auth_callback');
    expect(callback.searchParams.get('state')).toBe('claude-state');
    expect(callback.searchParams.get('iss')).toBe(stack.config.issuer);
    const tokens = await tokenRequest(stack, { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: 'https://claude.ai/api/mcp/auth_callback', code_verifier: verifier, client_id: clientId, resource });
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe('payments:read payments:propose offline_access');
    expect(tokens.body.refresh_token).toBeTruthy();
    const refreshed = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: clientId, resource });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toBeTruthy();
  });

  it('the claude.com callback in the same document works too', async () => {
    const clientId = `${host.origin}/oauth/mcp-oauth-client-metadata`;
    const { challenge } = pkcePair();
    const callback = await browser.approve(authorizeUrl(stack, { client_id: clientId, redirect_uri: 'https://claude.com/api/mcp/auth_callback', response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', resource: stack.url('payments-test') }));
    expect(callback.host).toBe('claude.com');
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('Claude Code\'s flow: http://127.0.0.1:<random>/callback against a registered http://127.0.0.1/callback (CC-4)', async () => {
    const clientId = serve('/claude-code.json', { client_id: `${host.origin}/claude-code.json`, client_name: 'Claude Code', redirect_uris: ['http://localhost/callback', 'http://127.0.0.1/callback'], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' });
    const port = 20000 + Math.floor(Math.random() * 40000);
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const { verifier, challenge } = pkcePair();
    const callback = await browser.approve(authorizeUrl(stack, { client_id: clientId, redirect_uri: redirectUri, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', resource: stack.url('payments-test') }));
    expect(callback.port).toBe(String(port));
    const tokens = await tokenRequest(stack, { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId });
    expect(tokens.status).toBe(200);
    expect(tokens.body.refresh_token).toBeTruthy();
  });

  const refusals: Array<[string, () => string, string?]> = [
    ['an http client id on a non-loopback host', () => 'http://claude.ai/oauth/mcp-oauth-client-metadata'],
    ['a fragment', () => `${serve('/frag', claudeAiDocument(`${host.origin}/frag`))}#x`],
    ['userinfo', () => `http://user@${host.origin.slice('http://'.length)}/ui`],
    ['dot-segments', () => `${host.origin}/a/../dots`],
    ['a document over the size cap', () => serve('/big', claudeAiDocument(`${host.origin}/big`, { padding: 'x'.repeat(6000) }))],
    ['a redirecting document host', () => serve('/moved', '', { status: 302, headers: { location: '/oauth/mcp-oauth-client-metadata' } })],
    ['a client_id that differs from the URL', () => serve('/mismatch', claudeAiDocument(`${host.origin}/other`))],
    ['a redirect_uri not in the document', () => serve('/narrow', claudeAiDocument(`${host.origin}/narrow`, { redirect_uris: ['https://claude.ai/elsewhere'] }))],
    ['non-JSON', () => serve('/text', 'hello', { headers: { 'content-type': 'text/plain' } })],
    ['a secret in the document', () => serve('/secret', claudeAiDocument(`${host.origin}/secret`, { client_secret: 'x' }))],
    ['a document host that is down (fetch failure)', () => 'http://127.0.0.1:1/doc'],
    ['a 404 from the document host', () => `${host.origin}/nothing-here`],
  ];

  it.each(refusals)('refuses %s with a direct 400 (never a redirect, never a 500), storing nothing', async (_name, clientIdOf) => {
    const clientId = clientIdOf();
    const before = await countRows(stack, 'oauth_consent_requests');
    const { challenge } = pkcePair();
    const res = await fetch(authorizeUrl(stack, { client_id: clientId, redirect_uri: 'https://claude.ai/api/mcp/auth_callback', response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', resource: stack.url('payments-test'), state: 's' }), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toMatch(/invalid_client|invalid_request/);
    expect(await countRows(stack, 'oauth_consent_requests')).toBe(before);
  });

  it('a fetch failure at the token endpoint is 400 invalid_client, not 500', async () => {
    const res = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'http://127.0.0.1:1/doc' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_client');
  });
});
