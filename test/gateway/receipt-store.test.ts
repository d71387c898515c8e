import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../shared/db/client.ts';
import { GENESIS_HASH, linkReceipt, receiptHash } from '../../services/gateway/src/domain/receipt.ts';
import { findChainHead, findReceipts, insertReceiptsWithUsage, isChainConflict, MAX_RECEIPTS_PER_INSERT, type UsageLine, type WrittenReceiptRow } from '../../services/gateway/src/store/receipt-store.ts';
import { openTestDb } from '../support/test-db.ts';

/**
 * The receipt INSERT sends a whole batch as one JSON parameter (json_to_recordset). What is read
 * back must be exactly what was written — nulls, unicode, big costs, both booleans — or
 * validate_task_result would reject honest receipts.
 */
let db: DbHandle;
beforeAll(async () => {
  db = await openTestDb();
}, 120_000);
afterAll(async () => db?.close());

function chainOf(subject: string, n: number, vary: (i: number) => Partial<Parameters<typeof linkReceipt>[1]> = () => ({}), start = GENESIS_HASH) {
  const items: Array<{ receipt: WrittenReceiptRow; usage: UsageLine }> = [];
  let prev = start;
  for (let i = 0; i < n; i++) {
    const body = linkReceipt(randomUUID(), {
      subject,
      taskId: null,
      upstream: 'ext',
      tool: 'ext_read_note',
      observedAt: new Date(Date.UTC(2026, 11, 2, 23, 0, 0, i)).toISOString(),
      cacheAgeMs: 0,
      inputSha256: 'a'.repeat(64),
      resultSha256: 'b'.repeat(64),
      runtimeState: 'ok',
      ...vary(i),
    }, prev);
    const hash = receiptHash(body);
    items.push({ receipt: { ...body, receipt_hash: hash, signature: `sig.${i}` }, usage: { costMicroUsdc: i * 1_000_000_007, cached: i % 2 === 1 } });
    prev = hash;
  }
  return items;
}

describe('insertReceiptsWithUsage', () => {
  it('stores every field of every receipt in the batch exactly as written', async () => {
    const subject = `user-${randomUUID()} «ünïcødé» "quoted" \\ back`;
    const items = chainOf(subject, 5, (i) => ({
      taskId: i === 0 ? null : `task "${i}" \u{1F4B8}`,
      cacheAgeMs: i * 1234,
      runtimeState: (['ok', 'invalid_input', 'rate_limited', 'degraded', 'failing'] as const)[i]!,
      tool: i === 4 ? 'ext_\u200bzero_width' : 'ext_read_note',
    }));
    await insertReceiptsWithUsage(db, items);
    const rows = new Map((await findReceipts(db, items.map((x) => x.receipt.receipt_id))).map((r) => [r.id, r]));
    expect(rows.size).toBe(5);
    for (const { receipt: r, usage } of items) {
      const row = rows.get(r.receipt_id)!;
      expect({
        subject: row.subject, taskId: row.taskId, upstream: row.upstream, tool: row.tool, observedAt: new Date(row.observedAt).toISOString(),
        cacheAgeMs: row.cacheAgeMs, inputSha256: row.inputSha256, resultSha256: row.resultSha256, runtimeState: row.runtimeState,
        prevHash: row.prevHash, receiptHash: row.receiptHash, signature: row.signature, costMicroUsdc: row.costMicroUsdc, cached: row.cached,
      }).toEqual({
        subject: r.subject, taskId: r.task_id, upstream: r.upstream, tool: r.tool, observedAt: r.observed_at,
        cacheAgeMs: r.cache_age_ms, inputSha256: r.input_sha256, resultSha256: r.result_sha256, runtimeState: r.runtime_state,
        prevHash: r.prev_hash, receiptHash: r.receipt_hash, signature: r.signature, costMicroUsdc: usage.costMicroUsdc, cached: usage.cached,
      });
    }
    expect(await findChainHead(db, subject)).toBe(items[4]!.receipt.receipt_hash);
  });

  it('writes a full batch in one statement and refuses a larger one before touching the database', async () => {
    const subject = `user-${randomUUID()}`;
    await insertReceiptsWithUsage(db, chainOf(subject, MAX_RECEIPTS_PER_INSERT));
    expect(await findChainHead(db, subject)).toBeDefined();
    const other = `user-${randomUUID()}`;
    await expect(insertReceiptsWithUsage(db, chainOf(other, MAX_RECEIPTS_PER_INSERT + 1))).rejects.toThrow(RangeError);
    expect(await findChainHead(db, other)).toBeUndefined();
  });

  it('rejects the whole batch when one row would fork the chain, and stores none of it', async () => {
    const subject = `user-${randomUUID()}`;
    const first = chainOf(subject, 2);
    await insertReceiptsWithUsage(db, first);
    // A second writer linked onto the same head as `first[1]` did: its first row forks the chain.
    const fork = chainOf(subject, 3, () => ({ tool: 'ext_other' }), first[0]!.receipt.receipt_hash);
    const err = await insertReceiptsWithUsage(db, fork).then(() => undefined, (e: unknown) => e);
    expect(isChainConflict(err)).toBe(true);
    expect(await findReceipts(db, fork.map((x) => x.receipt.receipt_id))).toEqual([]);
    expect(await findChainHead(db, subject)).toBe(first[1]!.receipt.receipt_hash);
  });
});
