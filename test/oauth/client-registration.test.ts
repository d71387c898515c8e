import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { countRows, registerClient } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ services: [] });
});
afterAll(async () => stack?.close());

function containsNull(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some(containsNull);
  if (typeof value === 'object') return Object.values(value as object).some(containsNull);
  return false;
}

describe('Dynamic client registration (RFC 7591 §3, AS-17, AS-18)', () => {
  it('a public registration with claude.ai and localhost callbacks gets 201, a client_id, no secret and no nulls', async () => {
    const { status, body } = await registerClient(stack, {
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'https://claude.com/api/mcp/auth_callback', 'http://localhost/callback', 'http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'payments:read',
      logo_uri: '',
    });
    expect(status).toBe(201);
    expect(body.client_id).toMatch(/^ghc_/);
    expect(body.client_secret).toBeUndefined();
    expect(body.token_endpoint_auth_method).toBe('none');
    expect(containsNull(body)).toBe(false);
  });

  it('an omitted token_endpoint_auth_method becomes client_secret_basic with a non-expiring secret (AS-18)', async () => {
    const { status, body } = await registerClient(stack, { redirect_uris: ['https://app.example/cb'] });
    expect(status).toBe(201);
    expect(body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', client_secret_expires_at: 0, grant_types: ['authorization_code'], response_types: ['code'] });
    expect(body.client_secret).toMatch(/^ghcs_/);
    expect(containsNull(body)).toBe(false);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['JaVaScRiPt: (mixed case)', 'JaVaScRiPt:alert(1)'],
    ['data:', 'data:text/html,hi'],
    ['leading whitespace', ' https://app.example/cb'],
    ['a control character', 'https://app.example/\u0000cb'],
    ['non-loopback http', 'http://app.example/cb'],
    ['a fragment', 'https://app.example/cb#frag'],
    ['userinfo', 'https://user:pw@app.example/cb'],
    ['not a URL', 'not a url'],
    ['empty', ''],
  ])('a redirect URI with %s gets 400 invalid_redirect_uri and nothing is stored', async (_name, uri) => {
    const before = await countRows(stack, 'oauth_clients');
    const { status, body } = await registerClient(stack, { redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_redirect_uri');
    expect(await countRows(stack, 'oauth_clients')).toBe(before);
  });

  it.each([
    ['an unsupported grant type', { grant_types: ['client_credentials'] }],
    ['implicit', { grant_types: ['implicit'], response_types: ['token'] }],
    ['an unsupported response type', { response_types: ['token'] }],
    ['an unknown auth method', { token_endpoint_auth_method: 'private_key_jwt' }],
  ])('%s gets 400 invalid_client_metadata and nothing is stored', async (_name, extra) => {
    const before = await countRows(stack, 'oauth_clients');
    const { status, body } = await registerClient(stack, { redirect_uris: ['https://app.example/cb'], ...extra });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_client_metadata');
    expect(await countRows(stack, 'oauth_clients')).toBe(before);
  });

  it('no redirect_uris gets 400 invalid_redirect_uri', async () => {
    const { status, body } = await registerClient(stack, { client_name: 'x' });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_redirect_uri');
  });

  it('30 registrations in a row from one address are not rate limited, and duplicates register independently (claude.ai egress)', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const { status, body } = await registerClient(stack, { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'none' });
      expect(status).toBe(201);
      ids.add(body.client_id as string);
    }
    expect(ids.size).toBe(30);
  });
});
