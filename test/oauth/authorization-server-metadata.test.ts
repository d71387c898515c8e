import { OAuthMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ services: ['payments-test', 'gateway'] });
});
afterAll(async () => stack?.close());

describe('Authorization server metadata (RFC 8414 §2, AS-1…AS-4, AS-25)', () => {
  it('serves the required fields with the exact issuer', async () => {
    const res = await fetch(`${stack.url('auth')}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const metadata = await res.json();
    expect(OAuthMetadataSchema.safeParse(metadata).success).toBe(true);
    expect(metadata.issuer).toBe(stack.config.issuer);
    expect(metadata.issuer.endsWith('/')).toBe(false);
    expect(new URL(metadata.issuer).search + new URL(metadata.issuer).hash).toBe('');
    expect(metadata).toMatchObject({
      authorization_endpoint: `${stack.config.issuer}/oauth/authorize`,
      token_endpoint: `${stack.config.issuer}/oauth/token`,
      registration_endpoint: `${stack.config.issuer}/oauth/register`,
      revocation_endpoint: `${stack.config.issuer}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    expect(metadata.response_types_supported).toContain('code');
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
    expect(metadata.scopes_supported).toContain('offline_access');
    expect(JSON.stringify(metadata)).not.toContain('null');
  });

  it('the issuer is byte-identical in AS metadata and every protected resource metadata document (AS-3)', async () => {
    const as = await (await fetch(`${stack.url('auth')}/.well-known/oauth-authorization-server`)).json();
    for (const service of ['payments-test', 'gateway'] as const) {
      const url = new URL(stack.url(service));
      const prm = await (await fetch(`${url.origin}/.well-known/oauth-protected-resource${url.pathname}`)).json();
      expect(prm.authorization_servers).toEqual([as.issuer]);
      expect(prm.resource).toBe(stack.url(service));
      expect(prm.scopes_supported).not.toContain('offline_access');
    }
  });

  it('there is no OpenID configuration (AS-2: 404)', async () => {
    expect((await fetch(`${stack.url('auth')}/.well-known/openid-configuration`)).status).toBe(404);
  });
});
