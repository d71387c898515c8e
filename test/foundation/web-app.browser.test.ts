import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startStack, type Stack } from '../support/stack.ts';

describe('web app in a real browser: sign in, create a connector key, see it once, revoke it', () => {
  let stack: Stack;
  let browser: Browser;
  beforeAll(async () => {
    stack = await startStack({ services: ['research'] });
    await stack.createUser({ email: 'web@example.com', password: 'a long enough password' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('walks the whole key lifecycle', async () => {
    const page = await browser.newPage();
    const base = stack.url('auth');

    // Signed out: the keys page sends us to sign in and back.
    await page.goto(`${base}/keys`);
    expect(new URL(page.url()).pathname).toBe('/login');
    const headers = (await page.request.get(`${base}/login`)).headers();
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");

    await page.fill('#email', 'web@example.com');
    await page.fill('#password', 'wrong password');
    await page.click('button[type=submit]');
    await expect(page.locator('.flash.error').textContent()).resolves.toContain('incorrect');

    await page.fill('#password', 'a long enough password');
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/keys`);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'gh_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    // An agent-chosen-looking name is shown escaped, never executed.
    await page.fill('#service_name', '<img src=x onerror="window.pwned=1">claude');
    await page.check('input[name=kind][value=connector]');
    await page.click('form[action="/keys"] button[type=submit]');
    const apiKey = (await page.locator('#new-api-key').textContent())!.trim();
    expect(apiKey).toMatch(/^yf_api_/);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await expect(page.locator('#new-key h2').textContent()).resolves.toContain('<img src=x');

    // The key works against an MCP server.
    const call = () =>
      fetch(stack.url('research'), {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await call()).status).toBe(200);

    // Shown once: a fresh load of the page does not contain it.
    await page.goto(`${base}/keys`);
    expect(await page.content()).not.toContain(apiKey);
    const row = page.locator('tr[data-key-id]');
    await expect(row.count()).resolves.toBe(1);

    // Revoke, and the key stops working within the exchange cache TTL (1 s in tests).
    await row.locator('button:has-text("Revoke")').click();
    await page.waitForURL(`${base}/keys`);
    await expect(row.locator('.badge.revoked').textContent()).resolves.toBe('revoked');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await call()).status).toBe(401);
  });

  it('a form post without the CSRF token is refused and creates nothing', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const base = stack.url('auth');
    await page.goto(`${base}/login`);
    await page.fill('#email', 'web@example.com');
    await page.fill('#password', 'a long enough password');
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/keys`);
    const before = await page.locator('tr[data-key-id]').count();
    const res = await page.request.post(`${base}/keys`, { form: { service_name: 'forged', kind: 'connector' } });
    expect(res.status()).toBe(403);
    await page.goto(`${base}/keys`);
    await expect(page.locator('tr[data-key-id]').count()).resolves.toBe(before);
    await context.close();
  });
});
