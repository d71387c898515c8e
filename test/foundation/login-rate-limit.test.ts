import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

describe('POST /auth/login rate limits (per account and per address)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: [], env: { LOGIN_RATE_LIMIT_PER_ACCOUNT: '3', LOGIN_RATE_LIMIT_PER_ADDRESS: '6' } });
    await stack.createUser({ email: 'a@example.com', password: 'password-a' });
    await stack.createUser({ email: 'b@example.com', password: 'password-b' });
  });
  afterAll(() => stack?.close());

  const login = (email: string, password: string) =>
    fetch(`${stack.url('auth')}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });

  it('failed attempts lock one account, not its neighbours; then the address limit applies to all', async () => {
    for (let i = 0; i < 3; i++) expect((await login('a@example.com', 'wrong')).status).toBe(401);
    // Even the right password is refused now, and no token is issued.
    const locked = await login('a@example.com', 'password-a');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('300');
    const body = (await locked.json()) as Record<string, unknown>;
    expect(body).toEqual({ error: 'rate_limited', error_description: 'Too many sign-in attempts; try again later' });
    // Another account from the same address still signs in (address count 5, then 6)…
    expect((await login('b@example.com', 'password-b')).status).toBe(200);
    expect((await login('b@example.com', 'password-b')).status).toBe(200);
    // …until the per-address limit (6) is spent.
    expect((await login('b@example.com', 'password-b')).status).toBe(429);
  });
});
