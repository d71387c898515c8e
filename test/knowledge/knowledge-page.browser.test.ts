import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startStack, type Stack } from '../support/stack.ts';

const EMAIL = 'kb-web@example.com';
const PASSWORD = 'a long enough password';
// A name built to execute if it were ever interpolated unescaped (no `/` or `"`: browsers cut the path and percent-encode quotes in multipart names).
const HOSTILE_NAME = 'Q3 <script>window.pwned=1<script><img src=x onerror=window.pwned=2> notes.txt';
const TEXT = [
  'FACILITY AGREEMENT between the Borrower and the Lender.',
  'The quillback covenant applies to the Borrower.',
  'Each quillback payment date falls on the last business day; the quillback margin is 2.5 per cent.',
].join('\n\n');

async function signIn(page: Page, base: string) {
  await page.goto(`${base}/knowledge`);
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.fill('#email', EMAIL);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(`${base}/knowledge`);
}

describe('Knowledge page (/knowledge) in a real browser', () => {
  let stack: Stack;
  let browser: Browser;
  beforeAll(async () => {
    stack = await startStack({ services: ['knowledge'] });
    await stack.createUser({ email: EMAIL, password: PASSWORD });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('creates a room, uploads a file that reaches ready, and count over MCP finds its words', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const base = stack.url('auth');
    await signIn(page, base);
    await expect(page.locator('nav a.on').textContent()).resolves.toBe('Knowledge');

    await page.fill('#room_name', 'Loan book <b>Q3</b>');
    await page.click('form[action="/knowledge/rooms"] button[type=submit]');
    await page.waitForURL(/\/knowledge\/rooms\/[0-9a-f-]{36}$/);
    const roomUrl = page.url();
    await expect(page.locator('#room-name').textContent()).resolves.toBe('Loan book <b>Q3</b>');
    await expect(page.locator('#files').count()).resolves.toBe(0);

    await page.setInputFiles('#file', { name: HOSTILE_NAME, mimeType: 'text/plain', buffer: Buffer.from(TEXT, 'utf8') });
    await page.click('form[enctype="multipart/form-data"] button[type=submit]');
    await page.waitForURL(roomUrl);
    // Indexing runs in the background; while anything is `indexing` the page reloads itself via
    // <meta http-equiv=refresh>. The locator keeps retrying across those reloads until `ready`.
    await page.locator('tr[data-file-id] [data-status="ready"]').waitFor({ timeout: 60_000 });
    await expect(page.locator('meta[http-equiv="refresh"]').count()).resolves.toBe(0);
    await expect(page.locator('tr[data-file-id] .file-name').textContent()).resolves.toBe(HOSTILE_NAME);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    // The room is on the index page too.
    await page.goto(`${base}/knowledge`);
    await expect(page.locator('tr[data-room-id] a').textContent()).resolves.toBe('Loan book <b>Q3</b>');

    // An AI client with a connector key counts the uploaded words, exactly.
    const { api_key } = await stack.createKey(EMAIL);
    const client = await stack.mcpClient('knowledge', api_key);
    try {
      const result = await client.callTool({ name: 'count', arguments: { query: 'quillback' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ occurrences: 3, documents: 1, mode: 'exact' });
      const borrower = await client.callTool({ name: 'count', arguments: { query: 'Borrower' } });
      expect(borrower.structuredContent).toMatchObject({ occurrences: 2, documents: 1 });
    } finally {
      await client.close();
    }
    await context.close();
  });

  it('an upload without the CSRF token is refused and stores nothing', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const base = stack.url('auth');
    await signIn(page, base);
    await page.fill('#room_name', 'Forgery target');
    await page.click('form[action="/knowledge/rooms"] button[type=submit]');
    await page.waitForURL(/\/knowledge\/rooms\/[0-9a-f-]{36}$/);
    const roomUrl = page.url();
    const res = await page.request.post(`${roomUrl}/files`, {
      multipart: { file: { name: 'forged.txt', mimeType: 'text/plain', buffer: Buffer.from('forged words') } },
    });
    expect(res.status()).toBe(403);
    await page.goto(roomUrl);
    await expect(page.locator('tr[data-file-id]').count()).resolves.toBe(0);
    await context.close();
  });
});

describe('knowledge internal routes (/internal/kb/*) admit only a personal on-behalf-of token', () => {
  let stack: Stack;
  let userId: string;
  beforeAll(async () => {
    stack = await startStack({ services: ['knowledge'] });
    userId = (await stack.createUser({ email: 'kb-internal@example.com' })).id;
  });
  afterAll(async () => {
    await stack?.close();
  });

  const createRoom = (bearer: string) =>
    fetch(`${stack.config.services.knowledge.publicUrl}/internal/kb/rooms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'should not exist' }),
    });
  const listRooms = async () => {
    const { access_token } = await stack.auth.accountService.mintOboToken({ userId, audience: stack.config.services.knowledge.resource, subjectKind: 'personal', chainId: null, actor: 'test' });
    const res = await fetch(`${stack.config.services.knowledge.publicUrl}/internal/kb/rooms`, { headers: { authorization: `Bearer ${access_token}` } });
    return ((await res.json()) as { rooms: unknown[] }).rooms;
  };

  it.each([
    ['an on-behalf-of token for a connector subject', async () => (await stack.auth.accountService.mintOboToken({ userId, audience: stack.config.services.knowledge.resource, subjectKind: 'connector', chainId: null, actor: 'test' })).access_token],
    ['an on-behalf-of token for another resource', async () => (await stack.auth.accountService.mintOboToken({ userId, audience: stack.config.services.research.resource, subjectKind: 'personal', chainId: null, actor: 'test' })).access_token],
    ['a connector key', async () => (await stack.createKey('kb-internal@example.com')).api_key],
    ['a plain login token', async () => stack.login('kb-internal@example.com')],
    ['garbage', async () => 'not-a-token'],
  ])('refuses %s with 401 and creates nothing', async (_label, bearer) => {
    const res = await createRoom(await bearer());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid_token' });
    expect(await listRooms()).toEqual([]);
  });

  it('accepts a personal on-behalf-of token', async () => {
    const { access_token } = await stack.auth.accountService.mintOboToken({ userId, audience: stack.config.services.knowledge.resource, subjectKind: 'personal', chainId: null, actor: 'test' });
    const res = await createRoom(access_token);
    expect(res.status).toBe(201);
    expect(await listRooms()).toMatchObject([{ name: 'should not exist', role: 'owner' }]);
  });
});
