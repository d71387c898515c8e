import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultyDb } from '../support/faulty-db.ts';
import { startStack, type Stack } from '../support/stack.ts';

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('auth outage (seed 001: 503 with Retry-After: 5, no challenge)', () => {
  let stack: Stack;
  let setDown: (down: boolean) => void;
  beforeAll(async () => {
    stack = await startStack({
      services: ['research', 'knowledge'],
      wrapAuthDb: (db) => {
        const faulty = faultyDb(db);
        setDown = faulty.setDown;
        return faulty.handle;
      },
    });
    await stack.createUser({ email: 'o@example.com' });
  });
  afterAll(() => stack?.close());

  it('auth’s database unreachable → 503 + Retry-After: 5; back → 200 without a restart', async () => {
    const { api_key } = await stack.createKey('o@example.com');
    const call = (server: 'research' | 'knowledge') =>
      fetch(stack.url(server), { method: 'POST', headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' }, body: TOOLS_LIST });
    setDown(true);
    for (const server of ['research', 'knowledge'] as const) {
      const res = await call(server);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('www-authenticate')).toBeNull();
      expect(await res.json()).toEqual({ error: 'The authorization service is unavailable; retry shortly' });
    }
    setDown(false);
    for (const server of ['research', 'knowledge'] as const) expect((await call(server)).status).toBe(200);
  });

  it('auth not listening at all → 503; listening again → 200', async () => {
    const { api_key } = await stack.createKey('o@example.com');
    const call = () => fetch(stack.url('research'), { method: 'POST', headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' }, body: TOOLS_LIST });
    await stack.suspend('auth');
    try {
      const res = await call();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('www-authenticate')).toBeNull();
    } finally {
      await stack.resume('auth');
    }
    expect((await call()).status).toBe(200);
  });
});
