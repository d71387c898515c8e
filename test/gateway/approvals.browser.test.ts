import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayService } from '../../services/gateway/src/app.ts';
import { upsertUpstream } from '../../services/gateway/src/store/upstream-store.ts';
import { launchChromium } from '../support/browser.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.ts';

/**
 * The approval loop in a real browser (issue 7, "Must show"): an agent's `invoke_stateful_tool`
 * is stored, not run; the account holder signs in, opens `confirm_url`, reads exactly what will
 * run (escaped), and approves or rejects; the agent's retry with `approval_id` runs the stored
 * call once, or never.
 */
const PASSWORD = 'a long enough password';
// Agent-chosen text lands on the person's screen: it must be shown, never interpreted.
const HOSTILE_ITEM = '<img src=x onerror="window.pwned=1">widget & "co"';

let stack: Stack;
let ext: FakeUpstream;
let browser: Browser;
let agent: Client;

const json = (r: unknown) => JSON.parse(((r as CallToolResult).content[0] as { text: string }).text);

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-approvals-'));
  writeFileSync(join(dir, 'gateway.config.json'), JSON.stringify({ upstreams: [] }));
  process.env.GATEWAY_CONFIG = join(dir, 'gateway.config.json');
  stack = await startStack({ services: ['gateway'] });
  ext = await startFakeUpstream();
  await upsertUpstream(stack.db, {
    name: 'shop',
    url: ext.url,
    prefix: 'shop',
    categories: ['commerce'],
    tier: 'standard',
    costMicroUsdc: 0,
    timeoutMs: 10_000,
    cacheTtls: {},
    auth: { kind: 'none' },
    autoApprove: [],
    source: 'cli',
  });
  await (stack.services.gateway as GatewayService).registry.refreshDue();
  await stack.createUser({ email: 'holder@example.com', password: PASSWORD });
  agent = await stack.mcpClient('gateway', (await stack.createKey('holder@example.com', { password: PASSWORD })).api_key);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await agent?.close();
  await stack?.close();
  await ext?.close();
});

async function requestApproval(item: string, quantity: number) {
  const pending = json(await agent.callTool({ name: 'invoke_stateful_tool', arguments: { tool: 'shop_create_order', arguments: { item, quantity } } }));
  expect(pending).toMatchObject({ approval_required: true, approval_id: expect.any(String), confirm_url: expect.stringContaining('/approvals/') });
  return pending as { approval_id: string; confirm_url: string };
}

async function signedInPageAt(url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  // Signed out: the approval link goes through sign-in and comes back.
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.fill('#email', 'holder@example.com');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(url);
  return page;
}

const runWith = (approval_id: string) => agent.callTool({ name: 'invoke_stateful_tool', arguments: { approval_id } }) as Promise<CallToolResult>;

describe('approvals page (real browser): /approvals/{id}', () => {
  it('shows the escaped call; approved, the agent\'s retry runs the stored arguments exactly once', async () => {
    const pending = await requestApproval(HOSTILE_ITEM, 2);
    expect(ext.callsOf('create_order')).toEqual([]);

    const page = await signedInPageAt(pending.confirm_url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Approve a tool call?');
    await expect(page.locator('section[data-approval-id] strong code').textContent()).resolves.toBe('shop_create_order');
    const shown = JSON.parse((await page.locator('#approval-arguments').textContent())!);
    expect(shown).toEqual({ item: HOSTILE_ITEM, quantity: 2 });
    expect(await page.locator('#approval-arguments img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    await page.click('#approve');
    await page.waitForURL(/done=approved/);
    await expect(page.locator('.flash').textContent()).resolves.toContain('Approved');
    await expect(page.locator('.badge').first().textContent()).resolves.toBe('approved');
    expect(ext.callsOf('create_order')).toEqual([]);

    const ran = await runWith(pending.approval_id);
    expect(ran.isError).toBeFalsy();
    expect(ext.callsOf('create_order')).toEqual([{ item: HOSTILE_ITEM, quantity: 2 }]);
    expect((ran.structuredContent as { _gateway: { tool: string } })._gateway.tool).toBe('shop_create_order');

    const again = await runWith(pending.approval_id);
    expect(json(again).error.code).toBe('approval_used');
    expect(ext.callsOf('create_order')).toHaveLength(1);

    await page.reload();
    await expect(page.locator('#approve').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('rejected in the browser, the call never runs', async () => {
    const before = ext.callsOf('create_order').length;
    const pending = await requestApproval('gift card', 100);
    const page = await signedInPageAt(pending.confirm_url);
    await page.click('#reject');
    await page.waitForURL(/done=rejected/);
    await expect(page.locator('.flash').textContent()).resolves.toContain('Rejected');

    const refused = await runWith(pending.approval_id);
    expect(json(refused).error.code).toBe('approval_rejected');
    expect(ext.callsOf('create_order')).toHaveLength(before);
    const rows = await stack.db.rows<{ status: string; executed_at: string | null }>(sql`select status, executed_at from gw_approvals where id = ${pending.approval_id}`);
    expect(rows).toEqual([{ status: 'rejected', executed_at: null }]);
    await page.context().close();
  });

  it('the approvals list links to the pending call', async () => {
    const pending = await requestApproval('stapler', 1);
    const page = await signedInPageAt(`${stack.url('auth')}/approvals`);
    await page.click(`a[href="/approvals/${pending.approval_id}"]`);
    await page.waitForURL(pending.confirm_url);
    await expect(page.locator('#approve').count()).resolves.toBe(1);
    await page.context().close();
  });
});
