import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { addContact, assertLedgerSound, count, parse, person, startPaymentsStack, type Person } from './payments-fixture.ts';

/**
 * Seed 001 "Propose → confirm → settle", end to end in Debian's Chromium: an agent proposes
 * through the real SDK client with a connector key, the person signs in to the web app at
 * `confirm_url`, decides, and the settlement worker (running, woken by NOTIFY) settles.
 */
let stack: Awaited<ReturnType<typeof startPaymentsStack>>;
let browser: Browser;
let alice: Person;
let bob: Person;
let agent: Client;

const PASSWORD = 'a long enough password';
// Agent-supplied text that would run if any page interpolated it as markup.
const HOSTILE_TITLE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">Lunch';
const HOSTILE_RATIONALE = '</td><script>window.pwned=3</script>';

beforeAll(async () => {
  stack = await startPaymentsStack();
  alice = await person(stack, 'alice@example.com', { fund: { USDC: '100' }, password: PASSWORD });
  bob = await person(stack, 'bob@example.com');
  await addContact(stack, alice, bob);
  agent = await stack.mcpClient('payments-test', alice.key);
  // The real worker, as in production: it wakes on NOTIFY when an intent is approved.
  await stack.payments.worker.start();
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await stack?.payments.worker.stop();
  await stack?.close();
});

async function propose(args: Record<string, unknown>): Promise<{ intent_id: string; workspace_id: string; confirm_url: string }> {
  const r = await agent.callTool({ name: 'propose_send', arguments: args });
  expect(r.isError).toBeFalsy();
  return r.structuredContent as { intent_id: string; workspace_id: string; confirm_url: string };
}

async function intentStatus(p: { intent_id: string; workspace_id: string }): Promise<any> {
  return parse(await agent.callTool({ name: 'intent_status', arguments: { intent_id: p.intent_id, workspace_id: p.workspace_id } }));
}

/** Opens confirm_url signed out: the app sends us to sign in and back to the same intent. */
async function signInAt(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.fill('#email', alice.email);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(url);
  return page;
}

describe('confirm_url in a real browser (seed 001 "Propose → confirm → settle")', () => {
  it('sign in, confirm, and the worker settles it to completed; agent text renders as text', async () => {
    const p = await propose({ asset: 'USDC', amount: '12.50', to: bob.email, title: HOSTILE_TITLE, rationale: HOSTILE_RATIONALE });
    expect(p.confirm_url).toBe(`${stack.config.issuer}/private?reader=intent/${p.workspace_id}/${p.intent_id}`);

    const context = await browser.newContext();
    const page = await signInAt(context, p.confirm_url);

    // What will happen, in the page's own words; the agent's words shown verbatim as text.
    await expect(page.locator('#what').textContent()).resolves.toContain('Send 12.5 USDC to bob <bob@example.com>');
    await expect(page.locator('[data-chain="153"]').count()).resolves.toBe(1);
    await expect(page.locator('#intent-title').textContent()).resolves.toBe(HOSTILE_TITLE);
    await expect(page.locator('#intent-rationale').textContent()).resolves.toBe(HOSTILE_RATIONALE);
    await expect(page.locator('#intent-title script, #intent-title img, #intent-rationale script').count()).resolves.toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    await page.click('#confirm');
    await page.waitForLoadState();
    await expect(page.locator('.flash').textContent()).resolves.toContain('Confirmed');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    // The agent learns the outcome the way it would in production: intent_status until a
    // message id exists, then wait_for_settlement (NOTIFY). No sleeps: each call answers a state.
    let doc = await intentStatus(p);
    while (!doc.message_id) {
      expect(['approved', 'submitting']).toContain(doc.status);
      doc = await intentStatus(p);
    }
    const waited = parse(await agent.callTool({ name: 'wait_for_settlement', arguments: { message_id: doc.message_id, timeout_ms: 60_000 } }));
    expect(waited).toMatchObject({ message_id: doc.message_id, settled: true, timed_out: false, status: 'completed' });
    doc = await intentStatus(p);
    expect(doc.status).toBe('completed');
    expect(doc.history.map((h: { to: string }) => h.to)).toEqual(['proposed', 'approved', 'submitting', 'submitted', 'completed']);
    expect(doc.history[1].actor).toBe(`user:${alice.id}`);
    expect(await count(stack, 'pay_ledger_transactions', sql`intent_id = ${p.intent_id}::uuid`)).toBe(1);
    await assertLedgerSound(stack);

    // Reloading the page now shows the settled state and offers nothing to decide.
    await page.goto(p.confirm_url);
    await expect(page.locator('#intent-status').textContent()).resolves.toBe('completed');
    await expect(page.locator('#confirm, #reject').count()).resolves.toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await context.close();
  });

  it('Reject cancels the intent; it never gets a message id and never settles', async () => {
    const p = await propose({ asset: 'USDC', amount: '7', to: bob.email, title: 'Reject me', request_id: 'browser-reject' });
    const context = await browser.newContext();
    const page = await signInAt(context, p.confirm_url);
    await page.click('#reject');
    await page.waitForLoadState();
    await expect(page.locator('.flash').textContent()).resolves.toContain('Rejected');
    await expect(page.locator('#intent-status').textContent()).resolves.toBe('cancelled');
    await expect(page.locator('#confirm').count()).resolves.toBe(0);

    // A worker pass finds nothing to do with it, however many run.
    await stack.payments.worker.runOnce();
    const doc = await intentStatus(p);
    expect(doc.status).toBe('cancelled');
    expect(doc.message_id).toBeNull();
    expect(doc.history.map((h: { to: string }) => h.to)).toEqual(['proposed', 'cancelled']);
    expect(await count(stack, 'pay_ledger_transactions', sql`intent_id = ${p.intent_id}::uuid`)).toBe(0);
    expect(await count(stack, 'pay_payments', sql`send_intent_id = ${p.intent_id}::uuid`)).toBe(0);

    // Confirming afterwards (a stale second tab) is refused with 409 and changes nothing.
    const res = await page.request.post(`${stack.url('auth')}/intents/${p.workspace_id}/${p.intent_id}/confirm`, {
      form: { csrf: (await page.locator('input[name=csrf]').first().getAttribute('value'))!, chain: '153' },
    });
    expect(res.status()).toBe(409);
    expect((await intentStatus(p)).status).toBe('cancelled');
    await context.close();
  });
});
