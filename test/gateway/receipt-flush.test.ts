import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/auth/session.ts';
import { loadConfig } from '../../shared/config.ts';
import type { DbHandle } from '../../shared/db/client.ts';
import { createLogger } from '../../shared/log.ts';
import { createGatewayService, type GatewayService } from '../../services/gateway/src/app.ts';
import { GatewayConfigError, loadGatewayConfig, type ReceiptFlush } from '../../services/gateway/src/config.ts';
import { createReceiptSigner, type ReceiptSigner } from '../../services/gateway/src/routing/receipt-signer.ts';
import { createReceiptWriter, type ReceiptWriter, type WrittenReceipt } from '../../services/gateway/src/routing/receipt-writer.ts';
import type { SoleWriterReceiptWriter } from '../../services/gateway/src/routing/sole-writer-receipt-writer.ts';
import { MAX_RECEIPTS_PER_INSERT } from '../../services/gateway/src/store/receipt-store.ts';
import { ensureReceiptSigningKey } from '../../services/gateway/src/store/signing-key-store.ts';
import { upsertUpstream } from '../../services/gateway/src/store/upstream-store.ts';
import { createValidateTaskResult } from '../../services/gateway/src/tools/validate-task-result.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.ts';
import { receiptChainOf, receiptRequest, storedReceiptCount } from './receipt-support.ts';

/**
 * GATEWAY_RECEIPT_FLUSH (docs/gateway.md, Receipts). `after_answer`, the default: on PGlite the
 * answer does not wait for the receipt's INSERT, and every reader awaits `settled()`; on Postgres
 * the INSERT stays before the answer on a pool with `synchronous_commit=off`. `before_answer`
 * keeps the durable commit before the answer. Real gateway, real upstream, real database.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let stack: Stack;
let gateway: GatewayService;
let ext: FakeUpstream;
let alice: Client;
let aliceId: string;
let signer: ReceiptSigner;
let gatewayEnv: Record<string, string>;

const gw = (r: unknown) => {
  const blocks = (r as CallToolResult).content as Array<{ text: string }>;
  return JSON.parse(blocks[blocks.length - 1]!.text)._gateway;
};
const json = (r: unknown) => JSON.parse(((r as CallToolResult).content[0] as { text: string }).text);

beforeAll(async () => {
  const configPath = join(mkdtempSync(join(tmpdir(), 'gw-flush-')), 'gateway.config.json');
  writeFileSync(configPath, JSON.stringify({ upstreams: [], access: { default: { categories: ['*'], tiers: ['*'] } } }));
  gatewayEnv = { GATEWAY_CONFIG: configPath, GATEWAY_RECEIPT_FLUSH: 'after_answer' };
  stack = await startStack({ services: ['gateway'], env: gatewayEnv });
  gateway = stack.services.gateway as GatewayService;
  ext = await startFakeUpstream();
  await upsertUpstream(stack.db, { name: 'ext', url: ext.url, prefix: 'ext', categories: ['defi'], tier: 'standard', costMicroUsdc: 5000, timeoutMs: 5000, cacheTtls: {}, auth: { kind: 'none' }, autoApprove: [], source: 'cli' });
  await gateway.registry.refreshDue();
  aliceId = (await stack.createUser({ email: 'alice@example.com' })).id;
  alice = await stack.mcpClient('gateway', (await stack.createKey('alice@example.com')).api_key);
  signer = await createReceiptSigner(await ensureReceiptSigningKey(stack.db));
}, 180_000);

afterAll(async () => {
  await alice?.close();
  await stack?.close();
  await ext?.close();
});

const request = receiptRequest;
const storedCount = (ids: readonly string[]) => storedReceiptCount(stack.db, ids);

/** `validate_task_result` as the gateway builds it, for a caller, over `receipts`' writer. */
function validatorFor(receipts: ReceiptWriter, subject: string) {
  const validate = createValidateTaskResult({ db: stack.db, signer, receipts });
  const ctx = { session: { subject } as Session, scope: undefined, signal: new AbortController().signal };
  return async (refs: unknown[]) => json(await validate({ receipts: refs as Array<{ receipt_id: string }> }, ctx));
}

const chainOf = (subject: string) => receiptChainOf(stack.db, subject);

// On Postgres a writer holds a connection of its pool for the receipt writer lock until closed.
const openWriters: ReceiptWriter[] = [];
afterEach(async () => {
  await Promise.all(openWriters.splice(0).map((w) => w.close()));
});
const tracked = (w: ReceiptWriter) => (openWriters.push(w), w);
const writerOn = (flush: ReceiptFlush, logger = createLogger('silent')) => tracked(createReceiptWriter({ db: gateway.receipts.db, signer, flush, logger }));

describe('GATEWAY_RECEIPT_FLUSH=after_answer: routed calls', () => {
  it('/health says when receipts are committed: after the answer, for a gateway alone', async () => {
    const res = await fetch(new URL('/health', stack.url('gateway')));
    expect(res.status).toBe(200);
    expect((await res.json()).receipts).toEqual({ flush: 'after_answer', commits: 'after_answer' });
  });

  it('a routed call\'s receipt validates right after the answer', async () => {
    const receipt = gw(await alice.callTool({ name: 'invoke_tool', arguments: { tool: 'ext_read_note', arguments: {} } }));
    const verdict = json(await alice.callTool({ name: 'validate_task_result', arguments: { receipts: [receipt] } }));
    expect(verdict.valid).toBe(true);
  });

  it('many concurrent calls make one linear chain with every receipt stored exactly once', async () => {
    const calls = 24;
    const receipts = (await Promise.all(Array.from({ length: calls }, () => alice.callTool({ name: 'invoke_tool', arguments: { tool: 'ext_read_note', arguments: {} } })))).map(gw);
    expect(new Set(receipts.map((r) => r.receipt_id)).size).toBe(calls);
    const verdict = json(await alice.callTool({ name: 'validate_task_result', arguments: { receipts } }));
    expect(verdict.valid).toBe(true);
    const chain = await chainOf(aliceId);
    expect(chain.walked).toBe(chain.stored);
    expect(chain.ids.filter((id) => receipts.some((r) => r.receipt_id === id))).toHaveLength(calls);
  });
});

describe.skipIf(onPostgres)('GATEWAY_RECEIPT_FLUSH=after_answer on PGlite: the INSERT follows the answer', () => {
  it('the writer answers before its row exists; validate_task_result awaits settled() and finds it', async () => {
    const subject = `s-${randomUUID()}`;
    const receipt = await gateway.receipts.write(request(subject));
    // Issued before the flush's turn of the event loop comes, so PGlite runs this read first.
    expect(await storedCount([receipt.receipt_id])).toBe(0);
    const verdict = await validatorFor(gateway.receipts, subject)([receipt]);
    expect(verdict).toMatchObject({ valid: true, receipts: [{ receipt_id: receipt.receipt_id, valid: true }] });
    expect(await storedCount([receipt.receipt_id])).toBe(1);
  });

  it('concurrent writes all answer before any of their rows exist; settled() stores them as one chain', async () => {
    const subject = `s-${randomUUID()}`;
    const writer = writerOn('after_answer');
    const written = await Promise.all(Array.from({ length: 10 }, () => writer.write(request(subject))));
    expect(await storedCount(written.map((w) => w.receipt_id))).toBe(0);
    await writer.settled();
    expect(await storedCount(written.map((w) => w.receipt_id))).toBe(10);
    expect(await chainOf(subject)).toMatchObject({ walked: 10, stored: 10 });
  });

  it('a batch lingers for more receipts: answered calls share one INSERT, which a reader starts at once', async () => {
    const subject = `s-${randomUUID()}`;
    // A linger far longer than the test, so only the reader can be what flushes the batch.
    const writer = tracked(createReceiptWriter({ db: gateway.receipts.db, signer, flush: 'after_answer', logger: createLogger('silent'), lingerMs: 600_000 }));
    const written: WrittenReceipt[] = [];
    for (let i = 0; i < 3; i++) {
      written.push(await writer.write(request(subject)));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await storedCount(written.map((w) => w.receipt_id))).toBe(0);
    const verdict = await validatorFor(writer, subject)(written);
    expect(verdict.valid).toBe(true);
    expect(await storedCount(written.map((w) => w.receipt_id))).toBe(3);
    expect(await chainOf(subject)).toMatchObject({ walked: 3, stored: 3 });
  });

  it('a full batch goes out without waiting for the linger or a reader', async () => {
    const subject = `s-${randomUUID()}`;
    const writer = tracked(createReceiptWriter({ db: gateway.receipts.db, signer, flush: 'after_answer', logger: createLogger('silent'), lingerMs: 600_000 }));
    const written = await Promise.all(Array.from({ length: MAX_RECEIPTS_PER_INSERT }, () => writer.write(request(subject))));
    const ids = written.map((w) => w.receipt_id);
    for (let i = 0; i < 100 && (await storedCount(ids)) < ids.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await storedCount(ids)).toBe(MAX_RECEIPTS_PER_INSERT);
    expect(await chainOf(subject)).toMatchObject({ walked: MAX_RECEIPTS_PER_INSERT, stored: MAX_RECEIPTS_PER_INSERT });
  });

  it('a failed INSERT is logged with the count lost, settled() resolves, and the next receipt links to the stored head', async () => {
    const subject = `s-${randomUUID()}`;
    const logs: Array<Record<string, unknown>> = [];
    const writer = writerOn('after_answer', pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) }));
    const validate = validatorFor(writer, subject);
    const first = await writer.write(request(subject));
    await writer.settled();

    // A real refusal from the database for this caller's rows only.
    await stack.db.rows(sql.raw(`create function refuse_receipt() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`));
    await stack.db.rows(sql.raw(`create trigger refuse_receipt before insert on gw_receipts for each row when (new.subject = '${subject}') execute function refuse_receipt()`));
    let lost: WrittenReceipt[] = [];
    try {
      lost = await Promise.all([writer.write(request(subject)), writer.write(request(subject))]);
      await writer.settled();
    } finally {
      await stack.db.rows(sql.raw('drop trigger refuse_receipt on gw_receipts'));
      await stack.db.rows(sql.raw('drop function refuse_receipt()'));
    }
    const errors = logs.filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ receiptsLost: 2, callers: 1, error: 'refused by test' });
    for (const r of lost) expect(JSON.stringify(logs)).not.toContain(r.signature.split('.')[2]);

    const next = await writer.write(request(subject));
    expect(next.prev_hash).toBe(first.receipt_hash);
    await writer.settled();
    expect(await chainOf(subject)).toMatchObject({ walked: 2, stored: 2 });
    // Fail closed: the receipts the database lost never validate.
    const verdict = await validate([first, ...lost, next]);
    expect(verdict.valid).toBe(false);
    expect(verdict.receipts.map((r: { valid: boolean }) => r.valid)).toEqual([true, false, false, true]);
    expect(verdict.receipts[1].problems).toEqual(['not_found']);
  });
});

describe.skipIf(!onPostgres)('GATEWAY_RECEIPT_FLUSH=after_answer on Postgres', () => {
  it('the receipts pool runs with synchronous_commit off in the main pool\'s schema; the main pool does not', async () => {
    const receiptsDb = gateway.receipts.db;
    expect(receiptsDb).not.toBe(stack.db);
    // Several at once, so more than one of the pool's connections answers.
    const settings = await Promise.all(Array.from({ length: 6 }, () => receiptsDb.rows<{ synchronous_commit: string }>(sql`show synchronous_commit`)));
    expect(settings.map(([s]) => s!.synchronous_commit)).toEqual(Array(6).fill('off'));
    expect((await stack.db.rows<{ synchronous_commit: string }>(sql`show synchronous_commit`))[0]!.synchronous_commit).toBe('on');
    const pathOf = async (db: DbHandle) => (await db.rows<{ search_path: string }>(sql`show search_path`))[0]!.search_path;
    expect(await pathOf(receiptsDb)).toBe(await pathOf(stack.db));
  });

  it('a gateway alone is the sole receipt writer (rows after the answer; receipt-writer-lock.test.ts has the hand-over)', async () => {
    expect((gateway.receipts as SoleWriterReceiptWriter).role).toBe('sole');
    const receipt = gw(await alice.callTool({ name: 'invoke_tool', arguments: { tool: 'ext_read_note', arguments: {} } }));
    const verdict = json(await alice.callTool({ name: 'validate_task_result', arguments: { receipts: [receipt] } }));
    expect(verdict.valid).toBe(true);
    expect(await storedCount([receipt.receipt_id])).toBe(1);
  });
});

describe('GATEWAY_RECEIPT_FLUSH=before_answer', () => {
  it('the row is committed before the writer answers', async () => {
    const writer = writerOn('before_answer');
    const written = await Promise.all(Array.from({ length: 5 }, () => writer.write(request(`s-${randomUUID()}`))));
    expect(await storedCount(written.map((w) => w.receipt_id))).toBe(5);
  });
});

describe('closing the gateway service', () => {
  it('stores every answered receipt before it returns, and refuses receipts after', async () => {
    const service = await createGatewayService({ config: stack.config, db: stack.db, logger: createLogger('silent'), env: { ...process.env, ...gatewayEnv } });
    const subject = `s-${randomUUID()}`;
    const written = await Promise.all(Array.from({ length: 3 }, () => service.receipts.write(request(subject))));
    await service.close();
    expect(await storedCount(written.map((w) => w.receipt_id))).toBe(3);
    if (!onPostgres) await expect(service.receipts.write(request(subject))).rejects.toThrow(/closed/);
  });
});

describe('loadGatewayConfig: GATEWAY_RECEIPT_FLUSH', () => {
  const config = loadConfig({});
  it('defaults to after_answer and accepts before_answer', () => {
    expect(loadGatewayConfig(config, {}).receiptFlush).toBe('after_answer');
    expect(loadGatewayConfig(config, { GATEWAY_RECEIPT_FLUSH: 'before_answer' }).receiptFlush).toBe('before_answer');
  });

  it.each(['sometimes', 'AFTER_ANSWER', 'after-answer'])('refuses %j, naming the variable', (value) => {
    expect(() => loadGatewayConfig(config, { GATEWAY_RECEIPT_FLUSH: value })).toThrow(GatewayConfigError);
    expect(() => loadGatewayConfig(config, { GATEWAY_RECEIPT_FLUSH: value })).toThrow(/GATEWAY_RECEIPT_FLUSH/);
  });
});
