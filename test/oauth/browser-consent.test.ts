import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { authorizeUrl, callMcp, pkcePair, registerPublicClient, tokenRequest } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 120_000 });

let stack: Stack;
let browser: Browser;
let callbackServer: Server;
let callbackPort: number;

beforeAll(async () => {
  stack = await startStack({ services: ['gateway'], env: { OAUTH_REVOCATION_CACHE_SECONDS: '0' } });
  await stack.createUser({ email: 'browser@example.com' });
  // The client's loopback callback (what Claude Code or mcp-remote would listen on).
  callbackServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('callback received'));
  await new Promise<void>((r) => callbackServer.listen(0, '127.0.0.1', r));
  callbackPort = (callbackServer.address() as AddressInfo).port;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});
afterAll(async () => {
  await browser?.close();
  callbackServer?.closeAllConnections();
  await new Promise((r) => callbackServer?.close(r));
  await stack?.close();
});

describe('Consent in a real browser (issue 3: sign in, approve, Connected apps, revoke)', () => {
  it('signs in, approves, lists the client under Connected apps, revokes it, and the token stops working', async () => {
    const resource = stack.url('gateway');
    const clientId = await registerPublicClient(stack, ['http://127.0.0.1/callback'], { client_name: 'Browser Test Client' });
    const redirectUri = `http://127.0.0.1:${callbackPort}/callback`;
    const { verifier, challenge } = pkcePair();
    const page = await (await browser.newContext()).newPage();

    await page.goto(authorizeUrl(stack, { client_id: clientId, redirect_uri: redirectUri, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', resource, state: 'browser-state' }));
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('#email', 'browser@example.com');
    await page.fill('#password', 'correct horse battery staple');
    await Promise.all([page.waitForURL(/\/oauth\/consent\?request=/), page.click('button[type=submit]')]);

    expect(await page.textContent('#client-name')).toBe('Browser Test Client');
    expect(await page.textContent('#redirect-host')).toBe(`127.0.0.1:${callbackPort}`);
    expect(await page.textContent('#resource')).toBe(resource);
    await Promise.all([page.waitForURL((url) => url.port === String(callbackPort)), page.click('#approve')]);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe('browser-state');
    expect(callback.searchParams.get('iss')).toBe(stack.config.issuer);

    const tokens = await tokenRequest(stack, { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId, resource });
    expect(tokens.status).toBe(200);
    expect((await callMcp(resource, tokens.body.access_token as string)).status).toBe(200);

    await page.goto(`${stack.url('auth')}/connected-apps`);
    const row = page.locator('#connected-apps tr', { hasText: 'Browser Test Client' });
    expect(await row.count()).toBe(1);
    await Promise.all([page.waitForURL(/\/connected-apps\?revoked=1/), row.locator('button', { hasText: 'Revoke' }).click()]);
    expect(await page.locator('#no-connected-apps').count()).toBe(1);

    const after = await callMcp(resource, tokens.body.access_token as string);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refresh = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: clientId });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
  });
});
