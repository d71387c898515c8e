import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../shared/db/client.ts';
import { createLogger } from '../../shared/log.ts';
import type { ReceiptFlush } from '../../services/gateway/src/config.ts';
import { GENESIS_HASH, receiptHash, type ReceiptBody } from '../../services/gateway/src/domain/receipt.ts';
import { createReceiptSigner, type ReceiptSigner } from '../../services/gateway/src/routing/receipt-signer.ts';
import { createReceiptWriter, type ReceiptRequest, type ReceiptWriter } from '../../services/gateway/src/routing/receipt-writer.ts';
import { openReceiptDb } from '../../services/gateway/src/store/receipt-store.ts';
import { ensureReceiptSigningKey } from '../../services/gateway/src/store/signing-key-store.ts';
import { openTestDb } from '../support/test-db.ts';

/**
 * Each caller's receipts form one hash chain, kept linear by the database (the unique
 * (subject, prev_hash) index), however the writes arrive: many concurrent calls on one writer
 * (group commit) and two writers on one database (two gateway replicas) racing for the head —
 * in both receipt flush modes, each through the handle the gateway would write receipts with.
 */
let db: Awaited<ReturnType<typeof openTestDb>>;
let signer: ReceiptSigner;
const receiptDbs = new Map<ReceiptFlush, DbHandle>();
const FLUSH_MODES: readonly ReceiptFlush[] = ['before_answer', 'after_answer'];

beforeAll(async () => {
  db = await openTestDb();
  signer = await createReceiptSigner(await ensureReceiptSigningKey(db));
  for (const flush of FLUSH_MODES) receiptDbs.set(flush, await openReceiptDb(db.config, db, flush));
});

afterAll(async () => {
  for (const handle of receiptDbs.values()) if (handle !== db) await handle.close();
  await db?.close();
});

const request = (subject: string, n: number, cached: boolean): ReceiptRequest => ({
  subject,
  taskId: null,
  upstream: 'ext',
  tool: `ext_tool_${n % 3}`,
  observedAt: new Date().toISOString(),
  cacheAgeMs: 0,
  inputSha256: 'a'.repeat(64),
  resultSha256: 'b'.repeat(64),
  runtimeState: 'ok',
  usage: { costMicroUsdc: cached ? 0 : 5000, cached },
});

interface Row {
  id: string;
  subject: string;
  task_id: string | null;
  upstream: string;
  tool: string;
  observed_at: string;
  cache_age_ms: number;
  input_sha256: string;
  result_sha256: string;
  runtime_state: ReceiptBody['runtime_state'];
  prev_hash: string;
  receipt_hash: string;
  signature: string;
}

/** Follows the chain from the genesis hash; returns how many receipts it visits. */
async function walkChain(subject: string): Promise<{ walked: number; stored: number }> {
  const rows = await db.rows<Row>(sql`select id, subject, task_id, upstream, tool, to_char(observed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as observed_at, cache_age_ms, input_sha256, result_sha256, runtime_state, prev_hash, receipt_hash, signature from gw_receipts where subject = ${subject}`);
  const byPrev = new Map(rows.map((r) => [r.prev_hash, r]));
  expect(byPrev.size).toBe(rows.length); // no two receipts share a predecessor: no fork
  let walked = 0;
  for (let r = byPrev.get(GENESIS_HASH); r; r = byPrev.get(r.receipt_hash)) {
    const { id, receipt_hash, signature, ...rest } = r;
    expect(receiptHash({ receipt_id: id, ...rest })).toBe(receipt_hash);
    expect(await signer.verify(receipt_hash, signature)).toBe(true);
    walked += 1;
  }
  return { walked, stored: rows.length };
}

// On Postgres a writer holds a connection of its pool for the receipt writer lock until closed.
const open: ReceiptWriter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((w) => w.close()));
});

describe.each(FLUSH_MODES)('receipt chains (GATEWAY_RECEIPT_FLUSH=%s)', (flush) => {
  const writer = () => {
    const w = createReceiptWriter({ db: receiptDbs.get(flush)!, signer, flush, logger: createLogger('silent') });
    open.push(w);
    return w;
  };

  it('stay linear when many calls of one caller are written at once (group commit)', async () => {
    const subject = `s-${randomUUID()}`;
    const w = writer();
    const written = await Promise.all(Array.from({ length: 40 }, (_, i) => w.write(request(subject, i, false))));
    await w.settled();
    expect(new Set(written.map((r) => r.prev_hash)).size).toBe(40);
    expect(await walkChain(subject)).toEqual({ walked: 40, stored: 40 });
  });

  // Two writers on one PGlite database do not exist (one process owns it), and after_answer on
  // PGlite relies on that: its writer's head is the truth. Replicas only exist on Postgres.
  it.skipIf(flush === 'after_answer' && !process.env.DATABASE_URL)('stay linear when two replicas write for the same caller concurrently', async () => {
    const subject = `s-${randomUUID()}`;
    const a = writer();
    const b = writer();
    const calls: Promise<unknown>[] = [];
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 6; i++) calls.push(a.write(request(subject, i, false)), b.write(request(subject, i, true)));
      await Promise.all(calls);
    }
    await Promise.all([a.settled(), b.settled()]);
    expect(await walkChain(subject)).toEqual({ walked: 60, stored: 60 });
  });

  it('carry each call\'s usage, read through gw_usage', async () => {
    const subject = `s-${randomUUID()}`;
    const w = writer();
    const written = await Promise.all([w.write(request(subject, 0, false)), w.write(request(subject, 1, true)), w.write(request(subject, 3, false))]);
    await w.settled();
    const lines = await db.rows<{ receipt_id: string; cost_micro_usdc: string | number; cached: boolean }>(sql`select receipt_id, cost_micro_usdc, cached from gw_usage where subject = ${subject} order by cost_micro_usdc, receipt_id`);
    expect(lines.map((l) => [l.receipt_id, Number(l.cost_micro_usdc), l.cached]).sort()).toEqual(
      [
        [written[0]!.receipt_id, 5000, false],
        [written[1]!.receipt_id, 0, true],
        [written[2]!.receipt_id, 5000, false],
      ].sort(),
    );
    const totals = await db.rows<{ tool: string; calls: number; cost_micro_usdc: string | number }>(sql`select tool, count(*)::int as calls, sum(cost_micro_usdc) as cost_micro_usdc from gw_usage where subject = ${subject} group by tool order by tool`);
    expect(totals.map((t) => ({ ...t, cost_micro_usdc: Number(t.cost_micro_usdc) }))).toEqual([
      { tool: 'ext_tool_0', calls: 2, cost_micro_usdc: 10000 },
      { tool: 'ext_tool_1', calls: 1, cost_micro_usdc: 0 },
    ]);
  });
});
