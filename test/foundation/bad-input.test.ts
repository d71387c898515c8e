import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

/** No stack frames, file paths or internal messages reach a client. */
function expectNoLeak(text: string) {
  expect(text).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|node_modules|Error: /);
}

describe('bad input gets a clear 4xx and nothing happens', () => {
  let stack: Stack;
  let key: string;
  let jwt: string;
  beforeAll(async () => {
    stack = await startStack({ services: ['research'] });
    await stack.createUser({ email: 'b@example.com' });
    key = (await stack.createKey('b@example.com')).api_key;
    jwt = await stack.login('b@example.com');
  });
  afterAll(() => stack?.close());

  const mcp = (body: string, headers: Record<string, string> = {}) =>
    fetch(stack.url('research'), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  describe('POST /mcp', () => {
    it('malformed JSON → 400 JSON-RPC parse error', async () => {
      const res = await mcp('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      expectNoLeak(text);
    });

    it('a body over 1 MiB → 413 JSON naming the limit', async () => {
      const res = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(1024 * 1024) } }));
      expect(res.status).toBe(413);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toContain('1048576');
    });

    it('a chunked body with no Content-Length is cut at the limit as it streams → 413', async () => {
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          // Far more than the limit if the server kept reading: it must stop at 1 MiB.
          if ((sent += chunk.length) > 64 * 1024 * 1024) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const res = await fetch(stack.url('research'), {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('1048576');
      expect(sent).toBeLessThan(64 * 1024 * 1024);
    });

    it('a compressed body → 415 naming the encoding; a non-UTF-8 charset → 415', async () => {
      const gz = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { 'content-encoding': 'gzip' });
      expect(gz.status).toBe(415);
      expect(((await gz.json()) as { error: { message: string } }).error.message).toContain('gzip');
      const latin1 = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { 'content-type': 'application/json; charset=iso-8859-1' });
      expect(latin1.status).toBe(415);
      const utf8 = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { 'content-type': 'application/json; charset=UTF-8' });
      expect(utf8.status).toBe(200);
    });

    it('not JSON-RPC → 400 invalid request', async () => {
      const res = await mcp(JSON.stringify({ hello: 'world' }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: -32600 } });
    });

    it('wrong parameter types → JSON-RPC -32602, not a crash', async () => {
      const res = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 42 } }));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { id: number; error: { code: number; message: string } };
      expect(body.id).toBe(7);
      expect(body.error.code).toBe(-32602);
      expectNoLeak(body.error.message);
    });

    it('an unknown tool → -32602 Unknown tool', async () => {
      const res = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'send_instant_payment', arguments: {} } }));
      const body = (await res.json()) as { id: number; error: { code: number; message: string } };
      expect(body).toMatchObject({ id: 8, error: { code: -32602 } });
      expect(body.error.message).toContain('Unknown tool: send_instant_payment');
    });

    it('an unknown method → -32601', async () => {
      const res = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'resources/frobnicate' }));
      expect(await res.json()).toMatchObject({ id: 9, error: { code: -32601 } });
    });

    it('a wrong content type → 415', async () => {
      const res = await mcp('{}', { 'content-type': 'text/plain' });
      expect(res.status).toBe(415);
    });

    it('an Accept that excludes JSON → 406', async () => {
      const res = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { accept: 'text/html' });
      expect(res.status).toBe(406);
    });

    it('an unsupported MCP-Protocol-Version → 400 (RS-17)', async () => {
      const res = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'mcp-protocol-version': '1999-01-01' });
      expect(res.status).toBe(400);
    });

    it('notifications only → 202 with no body', async () => {
      const res = await mcp(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    });

    it('concurrent requests with the same JSON-RPC id each get their own answer', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: i % 2 ? 'ping' : 'tools/list' })).then((r) => r.json() as Promise<{ id: number; result: Record<string, unknown> }>),
        ),
      );
      answers.forEach((a, i) => {
        expect(a.id).toBe(1);
        expect('tools' in a.result).toBe(i % 2 === 0);
      });
    });
  });

  describe('DNS-rebinding protection (RS-16)', () => {
    it('a foreign Origin → 403 before the body is read', async () => {
      const res = await mcp('{not json', { origin: 'https://evil.example' });
      expect(res.status).toBe(403);
    });
    it('the server’s own origin passes', async () => {
      const res = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { origin: new URL(stack.url('research')).origin });
      expect(res.status).toBe(200);
    });
  });

  describe('auth REST', () => {
    const post = (path: string, body: string, bearer?: string) =>
      fetch(`${stack.url('auth')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body,
      });

    it('login: malformed JSON → 400 invalid_request', async () => {
      const res = await post('/auth/login', '{"email":');
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ error: 'invalid_request' });
      expectNoLeak(text);
    });

    it('login: wrong types → 400 naming the field', async () => {
      const res = await post('/auth/login', JSON.stringify({ email: 5, password: 'x' }));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error_description: string }).error_description).toMatch(/^email:/);
    });

    it('login: unknown fields → 400 naming them', async () => {
      const res = await post('/auth/login', JSON.stringify({ email: 'b@example.com', password: 'x', admin: true }));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error_description: string }).error_description).toContain('admin');
    });

    it('login: an oversized body → 413 JSON', async () => {
      const res = await post('/auth/login', JSON.stringify({ email: 'b@example.com', password: 'x'.repeat(2 * 1024 * 1024) }));
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: 'payload_too_large' });
    });

    it('login: wrong password → 401 and no token', async () => {
      const res = await post('/auth/login', JSON.stringify({ email: 'b@example.com', password: 'wrong password' }));
      expect(res.status).toBe(401);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({ error: 'invalid_credentials', error_description: 'Email or password is incorrect' });
    });

    it('key generation: an unknown chain → 400 and no key is created', async () => {
      const res = await post('/auth/api-key/generate', JSON.stringify({ service_name: 'x', kind: 'connector', allowed_chains: ['999'] }), jwt);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error_description: string }).error_description).toMatch(/^allowed_chains/);
      const list = (await (await fetch(`${stack.url('auth')}/auth/api-keys`, { headers: { authorization: `Bearer ${jwt}` } })).json()) as { api_keys: unknown[] };
      expect(list.api_keys).toHaveLength(1);
    });

    it('key generation from a connector key → 403 personal_session_required, nothing minted', async () => {
      const res = await post('/auth/api-key/generate', JSON.stringify({ service_name: 'x', kind: 'connector' }), key);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'personal_session_required' });
    });

    it('omitted allowed_chains ⇒ ["153"]; the raw key is shown once and never listed', async () => {
      const res = await post('/auth/api-key/generate', JSON.stringify({ service_name: 'defaults', kind: 'connector' }), jwt);
      expect(res.status).toBe(201);
      const created = (await res.json()) as Record<string, unknown>;
      expect(created).toMatchObject({ kind: 'connector', allowed_chains: ['153'], service_name: 'defaults' });
      expect(String(created.api_key)).toMatch(/^yf_api_[A-Za-z0-9_-]{43}$/);
      const list = await (await fetch(`${stack.url('auth')}/auth/api-keys`, { headers: { authorization: `Bearer ${jwt}` } })).text();
      expect(list).not.toContain(String(created.api_key));
    });
  });
});
