import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../shared/db/client.ts';
import { createLogger } from '../../shared/log.ts';
import { createReceiptSigner, type ReceiptSigner } from '../../services/gateway/src/routing/receipt-signer.ts';
import { createReceiptWriter, type ReceiptWriter } from '../../services/gateway/src/routing/receipt-writer.ts';
import type { SoleWriterReceiptWriter, ReceiptWriterRole } from '../../services/gateway/src/routing/sole-writer-receipt-writer.ts';
import { openReceiptDb } from '../../services/gateway/src/store/receipt-store.ts';
import { receiptLockKey } from '../../services/gateway/src/store/receipt-writer-lock.ts';
import { ensureReceiptSigningKey } from '../../services/gateway/src/store/signing-key-store.ts';
import { openTestDb } from '../support/test-db.ts';
import { receiptChainOf, receiptRequest, storedReceiptCount } from './receipt-support.ts';

/**
 * The receipt writer lock on Postgres (docs/gateway.md, "When a receipt is committed"): a gateway
 * alone writes receipts after the answer; when another replica appears it stores what it has
 * queued and both write before the answer; alone again, it steps back up. Every step keeps each
 * caller's chain linear, and a sole writer whose lock session dies loses its queued receipts
 * (reported) rather than forking a chain. Real Postgres, a schema of this file's own, so the
 * lock is this file's alone. PGlite has no replicas (one process owns it) and no lock.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let db: Awaited<ReturnType<typeof openTestDb>>;
let receiptDb: DbHandle;
let signer: ReceiptSigner;
const open: ReceiptWriter[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  db = await openTestDb();
  receiptDb = await openReceiptDb(db.config, db, 'after_answer');
  signer = await createReceiptSigner(await ensureReceiptSigningKey(db));
}, 120_000);

afterEach(async () => {
  await Promise.all(open.splice(0).map((w) => w.close()));
});

afterAll(async () => {
  if (receiptDb && receiptDb !== db) await receiptDb.close();
  await db?.close();
});

const request = receiptRequest;

function writer(flush: 'after_answer' | 'before_answer', options: { lingerMs?: number; logger?: ReturnType<typeof createLogger> } = {}): SoleWriterReceiptWriter {
  const w = createReceiptWriter({ db: flush === 'after_answer' ? receiptDb : db, signer, flush, logger: options.logger ?? createLogger('silent'), ...(options.lingerMs ? { lingerMs: options.lingerMs } : {}) });
  open.push(w);
  return w as SoleWriterReceiptWriter;
}

async function roleBecomes(w: SoleWriterReceiptWriter, role: ReceiptWriterRole, withinMs = 10_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (w.role !== role && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(w.role).toBe(role);
}

const storedCount = (ids: readonly string[]) => storedReceiptCount(db, ids);

async function chainOf(subject: string): Promise<{ walked: number; stored: number }> {
  const { walked, stored } = await receiptChainOf(db, subject);
  return { walked, stored };
}

describe.skipIf(!onPostgres)('the receipt writer lock (Postgres)', () => {
  it('alone, a gateway is the sole writer: its answers come before their rows', async () => {
    const a = writer('after_answer', { lingerMs: 600_000 });
    const subject = `s-${randomUUID()}`;
    const written = await Promise.all(Array.from({ length: 4 }, () => a.write(request(subject))));
    expect(a.role).toBe('sole');
    expect(a.commits).toBe('after_answer');
    // A ten-minute linger: only settled() can have stored them.
    expect(await storedCount(written.map((w) => w.receipt_id))).toBe(0);
    await a.settled();
    expect(await storedCount(written.map((w) => w.receipt_id))).toBe(4);
    expect(await chainOf(subject)).toEqual({ walked: 4, stored: 4 });
  });

  it('a second replica makes the sole writer store its queue and step down; alone again, it steps back up', async () => {
    const a = writer('after_answer', { lingerMs: 600_000 });
    const subject = `s-${randomUUID()}`;
    const queued = await Promise.all(Array.from({ length: 3 }, () => a.write(request(subject))));
    expect(a.role).toBe('sole');
    expect(await storedCount(queued.map((w) => w.receipt_id))).toBe(0);

    const b = writer('after_answer', { lingerMs: 600_000 });
    // b's first receipt waits until a has handed over; by then a's queue is stored.
    const first = await b.write(request(subject));
    expect(a.role).toBe('shared');
    expect(b.role).toBe('shared');
    expect([a.commits, b.commits]).toEqual(['before_answer', 'before_answer']);
    expect(await storedCount(queued.map((w) => w.receipt_id))).toBe(3);
    expect(first.prev_hash).toBe(queued[2]!.receipt_hash);
    expect(await storedCount([first.receipt_id])).toBe(1);

    // Both write at once for one caller: every answer already stored, one linear chain.
    const racing = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).write(request(subject))));
    expect(await storedCount(racing.map((w) => w.receipt_id))).toBe(20);
    expect(await chainOf(subject)).toEqual({ walked: 24, stored: 24 });

    await b.close();
    open.splice(open.indexOf(b), 1);
    await roleBecomes(a, 'sole');
    const after = await a.write(request(subject));
    const prevs = new Set([first, ...racing].map((w) => w.prev_hash));
    const head = [first, ...racing].filter((w) => !prevs.has(w.receipt_hash));
    expect(head).toHaveLength(1);
    expect(after.prev_hash).toBe(head[0]!.receipt_hash);
    await a.settled();
    expect(await chainOf(subject)).toEqual({ walked: 25, stored: 25 });
  });

  it('a before_answer replica keeps every replica shared for as long as it runs', async () => {
    const a = writer('after_answer');
    await a.write(request(`s-${randomUUID()}`));
    expect(a.role).toBe('sole');
    const durable = writer('before_answer');
    const subject = `s-${randomUUID()}`;
    const w = await durable.write(request(subject));
    expect(durable.role).toBe('shared');
    expect(a.role).toBe('shared');
    expect(await storedCount([w.receipt_id])).toBe(1);
    // Well past the step-up interval: a stays shared.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(a.role).toBe('shared');
    await durable.close();
    open.splice(open.indexOf(durable), 1);
    await roleBecomes(a, 'sole');
  });

  it('a sole writer whose lock session dies reports its queued receipts lost and goes on writing before the answer', async () => {
    const logs: Array<Record<string, unknown>> = [];
    const a = writer('after_answer', { lingerMs: 600_000, logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) }) });
    const subject = `s-${randomUUID()}`;
    const stored = await a.write(request(subject));
    await a.settled();
    const queued = await Promise.all([a.write(request(subject)), a.write(request(subject))]);
    expect(a.role).toBe('sole');

    // Another session ends the lock's backend, as a network failure or an operator would.
    // This schema's lock only: other test files' gateways hold their own schemas' locks on this server.
    const [k1, k2] = receiptLockKey(db.schema);
    const [lock] = await db.rows<{ pid: number }>(sql`select pid from pg_locks where locktype = 'advisory' and classid::int8 = ${k1}::int8 and objid::int8 = ${k2}::int8 and mode = 'ExclusiveLock' and granted`);
    expect(lock).toBeDefined();
    await db.rows(sql`select pg_terminate_backend(${lock!.pid}::int)`);
    await roleBecomes(a, 'shared');

    const lost = logs.filter((l) => l.level === 50);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ receiptsLost: 2, callers: 1 });
    expect(await storedCount(queued.map((w) => w.receipt_id))).toBe(0);

    // The next receipt links onto the stored head and is stored before it is answered.
    const next = await a.write(request(subject));
    expect(next.prev_hash).toBe(stored.receipt_hash);
    expect(await storedCount([next.receipt_id])).toBe(1);
    expect(await chainOf(subject)).toEqual({ walked: 2, stored: 2 });
  });
});
