import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_CONNECTOR_TEXT, wrongAudienceText } from '../../shared/auth/guard-texts.ts';
import { protectedResourceMetadataUrl } from '../../shared/auth/protected-resource-metadata.ts';
import type { ServiceName } from '../../shared/config.ts';
import { createTokenMinter } from '../../services/auth/src/domain/token-minter.ts';
import { ensureActiveSigningKey } from '../../services/auth/src/store/signing-key-store.ts';
import { startStack, type Stack } from '../support/stack.ts';

const MCP_SERVERS: ServiceName[] = ['research', 'knowledge', 'payments-test', 'payments-live', 'gateway'];
const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

async function postMcp(url: string, bearer: string | undefined, body: unknown = TOOLS_LIST) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer !== undefined ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, challenge: res.headers.get('www-authenticate'), retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

describe('the shared guard: credential matrix (seed 001, "Connector credentials")', () => {
  let stack: Stack;
  const creds: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startStack({ services: MCP_SERVERS });
    await stack.createUser({ email: 'holder@example.com' });
    creds.personalKey = (await stack.createKey('holder@example.com', { kind: 'personal' })).api_key;
    creds.connectorKey = (await stack.createKey('holder@example.com', { kind: 'connector' })).api_key;
    creds.loginJwt = await stack.login('holder@example.com');
    const revoked = await stack.createKey('holder@example.com', { kind: 'connector' });
    const revokeRes = await fetch(`${stack.url('auth')}/auth/api-keys/${revoked.id}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${creds.loginJwt}` },
    });
    expect(revokeRes.status).toBe(200);
    creds.revokedKey = revoked.api_key;
    // A connector session exchanged at auth by hand, for the research server.
    const exchanged = await fetch(`${stack.url('auth')}/auth/api-key/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: creds.connectorKey, resource: stack.url('research'), chain_id: null }),
    });
    creds.exchangedForResearch = ((await exchanged.json()) as { session_token: string }).session_token;
    // An access token for knowledge that expired an hour ago, signed by auth's real key.
    const signingKey = await ensureActiveSigningKey(stack.db.db);
    const past = createTokenMinter({ issuer: stack.config.issuer, signingKey, now: () => Date.now() - 2 * 3600_000 });
    creds.expired = (await past.mint({ sub: 'x', aud: stack.url('knowledge'), session_kind: 'connector', token_use: 'access', scope: 'knowledge:read' }, 3600)).token;
    const [h, p, s] = creds.loginJwt.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    creds.tampered = [h, Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url'), s].join('.');
  });
  afterAll(() => stack?.close());

  describe.each(MCP_SERVERS)('%s', (server) => {
    const challengeFor = () => `Bearer resource_metadata="${protectedResourceMetadataUrl(stack.url(server))}", error="invalid_token"`;

    it('no credential → 401 with the challenge naming this server’s metadata', async () => {
      const r = await postMcp(stack.url(server), undefined);
      expect(r.status).toBe(401);
      expect(r.challenge).toBe(challengeFor());
      expect(r.body.error).toMatch(/Authorization required/);
      expect(r.body).not.toHaveProperty('result');
    });

    it('personal key → 401 with the not-a-connector text', async () => {
      const r = await postMcp(stack.url(server), creds.personalKey);
      expect(r).toMatchObject({ status: 401, challenge: challengeFor(), body: { error: NOT_CONNECTOR_TEXT } });
    });

    it('connector key → 200 with the tool list', async () => {
      const r = await postMcp(stack.url(server), creds.connectorKey);
      expect(r.status).toBe(200);
      expect((r.body.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    });

    it('login JWT → 401 with the wrong-audience text naming this server', async () => {
      const r = await postMcp(stack.url(server), creds.loginJwt);
      expect(r).toMatchObject({ status: 401, challenge: challengeFor(), body: { error: wrongAudienceText(stack.url(server)) } });
    });

    it('a connector session exchanged by hand (for research) → 401 wrong audience, research included', async () => {
      const r = await postMcp(stack.url(server), creds.exchangedForResearch);
      expect(r).toMatchObject({ status: 401, challenge: challengeFor(), body: { error: wrongAudienceText(stack.url(server)) } });
    });

    it('expired token → 401 naming the failure', async () => {
      const r = await postMcp(stack.url(server), creds.expired);
      expect(r).toMatchObject({ status: 401, challenge: challengeFor(), body: { error: 'Invalid credential: the token has expired' } });
    });

    it('tampered JWT → 401 naming the failure', async () => {
      const r = await postMcp(stack.url(server), creds.tampered);
      expect(r).toMatchObject({ status: 401, challenge: challengeFor(), body: { error: 'Invalid credential: the token signature is invalid' } });
    });

    it('revoked key → 401 naming the failure', async () => {
      const r = await postMcp(stack.url(server), creds.revokedKey);
      expect(r).toMatchObject({ status: 401, challenge: challengeFor(), body: { error: 'Invalid credential: the API key has been revoked' } });
    });

    it('a valid connector key is never 401 on GET or DELETE: 405', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(stack.url(server), { method, headers: { authorization: `Bearer ${creds.connectorKey}` } });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(res.headers.get('www-authenticate')).toBeNull();
      }
    });

    it('GET and DELETE without a credential are 401, not 405 (RS-1)', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(stack.url(server), { method });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(challengeFor());
      }
    });

    it('a token in the query string is ignored (RS-9)', async () => {
      const r = await postMcp(`${stack.url(server)}?access_token=${creds.connectorKey}`, undefined);
      expect(r.status).toBe(401);
    });

    it('X-API-Key carries a connector key too (RS-12)', async () => {
      const res = await fetch(stack.url(server), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': creds.connectorKey! },
        body: JSON.stringify(TOOLS_LIST),
      });
      expect(res.status).toBe(200);
    });

    it('the metadata document names this resource and the one issuer (RS-2, RS-3)', async () => {
      const url = protectedResourceMetadataUrl(stack.url(server));
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as Record<string, unknown>;
      expect(doc.resource).toBe(stack.url(server));
      expect(doc.authorization_servers).toEqual([stack.config.issuer]);
      expect(doc.bearer_methods_supported).toContain('header');
      expect((doc.scopes_supported as string[]).length).toBeGreaterThan(0);
      expect(doc.scopes_supported).not.toContain('offline_access');
      const root = (await (await fetch(new URL('/.well-known/oauth-protected-resource', url))).json()) as Record<string, unknown>;
      expect(root.resource).toBe(stack.url(server));
    });
  });

  it('one bearer gets one text on every server', async () => {
    for (const [name, bearer] of Object.entries(creds)) {
      if (name === 'connectorKey') continue;
      const texts = new Set<string>();
      for (const server of MCP_SERVERS) {
        const r = await postMcp(stack.url(server), bearer);
        texts.add(String(r.body.error).replace(stack.url(server), '<resource>'));
      }
      expect([name, texts.size]).toEqual([name, 1]);
    }
  });

  it('bodies never echo the credential (RS-19)', async () => {
    for (const bearer of Object.values(creds)) {
      for (const server of MCP_SERVERS) {
        const r = await postMcp(stack.url(server), bearer);
        expect(JSON.stringify(r.body)).not.toContain(bearer);
      }
    }
  });
});
