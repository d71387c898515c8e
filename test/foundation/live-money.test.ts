import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

async function authCall(stack: Stack, method: string, path: string, bearer: string, body?: unknown) {
  const res = await fetch(`${stack.url('auth')}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const liveCall = (stack: Stack, key: string) =>
  fetch(stack.url('payments-live'), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: TOOLS_LIST });

describe('live money is opt-in per person (seed 001)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: ['payments-live'] });
    await stack.createUser({ email: 'plain@example.com' });
    await stack.createUser({ email: 'verified@example.com', kyc: true });
  });
  afterAll(() => stack?.close());

  it('a connector key for 151 is refused at generation while opt-in is off, and no key is created', async () => {
    const jwt = await stack.login('plain@example.com');
    const r = await authCall(stack, 'POST', '/auth/api-key/generate', jwt, { service_name: 'cc', kind: 'connector', allowed_chains: ['151'] });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'live_connector_opt_in_required', chain_id: '151' });
    expect(typeof r.body.error).toBe('string');
    const list = await authCall(stack, 'GET', '/auth/api-keys', jwt);
    expect(list.body.api_keys).toEqual([]);
  });

  it('opt-in is refused below the kyc floor, and the flag stays off', async () => {
    const jwt = await stack.login('plain@example.com');
    const r = await authCall(stack, 'PUT', '/auth/users/me/live-connectors', jwt, { enabled: true });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('live_verification_required');
    const after = await authCall(stack, 'GET', '/auth/users/me/live-connectors', jwt);
    expect(after.body).toEqual({ enabled: false, verification_level: 'none', required_verification_level: 'kyc' });
  });

  it('a connector can read the flag but never write it', async () => {
    const { api_key } = await stack.createKey('verified@example.com', { kind: 'connector' });
    const read = await authCall(stack, 'GET', '/auth/users/me/live-connectors', api_key);
    expect(read).toMatchObject({ status: 200, body: { enabled: false } });
    const write = await authCall(stack, 'PUT', '/auth/users/me/live-connectors', api_key, { enabled: true });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('personal_session_required');
    const after = await authCall(stack, 'GET', '/auth/users/me/live-connectors', api_key);
    expect(after.body.enabled).toBe(false);
  });

  it('with opt-in a live connector key works; after disabling, the next exchange is refused', async () => {
    const jwt = await stack.login('verified@example.com');
    expect((await authCall(stack, 'PUT', '/auth/users/me/live-connectors', jwt, { enabled: true })).status).toBe(200);
    const gen = await authCall(stack, 'POST', '/auth/api-key/generate', jwt, { service_name: 'cc', kind: 'connector', allowed_chains: ['151'] });
    expect(gen.status).toBe(201);
    const key = gen.body.api_key as string;
    expect((await liveCall(stack, key)).status).toBe(200);

    const off = await authCall(stack, 'PUT', '/auth/users/me/live-connectors', jwt, { enabled: false });
    expect(off).toMatchObject({ status: 200, body: { enabled: false } });
    // The exchange itself refuses at once; the MCP server's cached session lasts at most its TTL (1 s here).
    const exchange = await fetch(`${stack.url('auth')}/auth/api-key/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: key, resource: stack.url('payments-live'), chain_id: '151' }),
    });
    expect(exchange.status).toBe(403);
    expect(await exchange.json()).toMatchObject({ code: 'live_connector_opt_in_required', chain_id: '151' });
    await new Promise((r) => setTimeout(r, 1100));
    const res = await liveCall(stack, key);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(await res.json()).toMatchObject({ code: 'live_connector_opt_in_required', chain_id: '151' });
    // And no new live key can be minted.
    const again = await authCall(stack, 'POST', '/auth/api-key/generate', jwt, { service_name: 'cc2', kind: 'connector', allowed_chains: ['153', '151'] });
    expect(again.status).toBe(403);
  });
});

describe('revocation (seed 001: takes effect within the exchange cache TTL)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: ['research'] });
    await stack.createUser({ email: 'rev@example.com' });
  });
  afterAll(() => stack?.close());

  it('a revoked key stops working within the (1 s) TTL', async () => {
    const { api_key, id } = await stack.createKey('rev@example.com');
    const call = () => fetch(stack.url('research'), { method: 'POST', headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' }, body: TOOLS_LIST });
    expect((await call()).status).toBe(200);
    const jwt = await stack.login('rev@example.com');
    const revoked = await authCall(stack, 'POST', `/auth/api-keys/${id}/revoke`, jwt);
    expect(revoked.status).toBe(200);
    expect(typeof revoked.body.revoked_at).toBe('string');
    await new Promise((r) => setTimeout(r, 1100));
    const res = await call();
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Invalid credential: the API key has been revoked' });
  });

  it('another user’s key id cannot be revoked (404, and the key keeps working)', async () => {
    await stack.createUser({ email: 'other@example.com' });
    const { api_key, id } = await stack.createKey('rev@example.com');
    const jwt = await stack.login('other@example.com');
    const r = await authCall(stack, 'POST', `/auth/api-keys/${id}/revoke`, jwt);
    expect(r.status).toBe(404);
    const res = await fetch(stack.url('research'), { method: 'POST', headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' }, body: TOOLS_LIST });
    expect(res.status).toBe(200);
  });
});
