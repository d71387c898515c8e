import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { wrongAudienceText } from '../../shared/auth/guard-texts.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { callMcp, TestBrowser } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 90_000 });

// oauth4webapi refuses http:// unless told; these servers run on loopback http in tests.
const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe('MCP authorization, end to end with oauth4webapi (MCP 2025-06-18 §Authorization Flow)', () => {
  let stack: Stack;
  let browser: TestBrowser;

  beforeAll(async () => {
    stack = await startStack({ services: ['payments-test', 'gateway'], env: { OAUTH_REVOCATION_CACHE_SECONDS: '0' } });
    await stack.createUser({ email: 'ada@example.com' });
    browser = new TestBrowser(stack.url('auth'));
    await browser.signIn('ada@example.com', 'correct horse battery staple');
  });
  afterAll(async () => stack?.close());

  it('401 → PRM → AS metadata → DCR → PKCE authorize → consent → token → tools/list → audience → refresh → reuse revokes the family', async () => {
    const mcpUrl = stack.url('payments-test');

    // 1. An anonymous POST is challenged with the resource metadata URL (RS-1).
    const anonymous = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    const challenge = anonymous.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    const prmUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;

    // 2. Protected resource metadata (RFC 9728) names the issuer.
    const prm = await oauth.processResourceDiscoveryResponse(new URL(mcpUrl), await oauth.resourceDiscoveryRequest(new URL(mcpUrl), insecure));
    expect(await (await fetch(prmUrl)).json()).toEqual(JSON.parse(JSON.stringify(prm)));
    const issuer = new URL(prm.authorization_servers![0]!);

    // 3. Authorization server metadata (RFC 8414); the issuer matches byte for byte (AS-3).
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.issuer).toBe(prm.authorization_servers![0]);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);

    // 4. Dynamic client registration (RFC 7591), a public client.
    const redirectUri = 'http://127.0.0.1:53682/callback';
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], client_name: 'oauth4webapi e2e' },
        insecure,
      ),
    );
    expect(client.client_secret).toBeUndefined();

    // 5. PKCE authorize, consent as the signed-in browser, back with code, state and iss.
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: prm.resource,
      scope: prm.scopes_supported!.join(' '),
      state,
    }).toString();
    const callback = await browser.approve(authorizationUrl.href);
    expect(callback.origin + callback.pathname).toBe(redirectUri);
    const params = oauth.validateAuthResponse(as, client, callback, state); // checks iss (RFC 9207)

    // 6. Token, bound to the resource.
    const tokenResponse = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { additionalParameters: { resource: prm.resource }, ...insecure }),
    );
    expect(tokenResponse.token_type).toBe('bearer');
    expect(tokenResponse.expires_in).toBe(3600);
    expect(tokenResponse.refresh_token).toBeTruthy();
    const claims = JSON.parse(Buffer.from(tokenResponse.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ aud: mcpUrl, iss: as.issuer, session_kind: 'connector', token_use: 'access', chain_id: '153', client_id: client.client_id });

    // 7. tools/list on that server with the SDK client.
    const mcp = new Client({ name: 'e2e', version: '0.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${tokenResponse.access_token}` } } }));
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
    await mcp.close();

    // 8. The same token on another server: 401 with seed 001's text, challenge naming that server.
    const elsewhere = await callMcp(stack.url('gateway'), tokenResponse.access_token);
    expect(elsewhere.status).toBe(401);
    expect(JSON.parse(elsewhere.text)).toEqual({ error: wrongAudienceText(stack.url('gateway')) });
    expect(elsewhere.headers.get('www-authenticate')).toContain('/.well-known/oauth-protected-resource/mcp');
    expect(elsewhere.headers.get('www-authenticate')).toContain('error="invalid_token"');

    // 9. Refresh: a new refresh token, a new working access token.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokenResponse.refresh_token!, { additionalParameters: { resource: prm.resource }, ...insecure }),
    );
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokenResponse.refresh_token);
    expect((await callMcp(mcpUrl, refreshed.access_token)).status).toBe(200);

    // 10. The old refresh token reused: invalid_grant, and the whole family is revoked.
    const reuse = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokenResponse.refresh_token!, insecure);
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    const afterReuse = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure);
    expect(afterReuse.status).toBe(400);
    expect(await afterReuse.json()).toMatchObject({ error: 'invalid_grant' });
    for (const token of [tokenResponse.access_token, refreshed.access_token]) {
      const res = await callMcp(mcpUrl, token);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text).error).toContain('revoked');
    }
  });
});
