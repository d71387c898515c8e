import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { DbHandle } from '../../shared/db/client.ts';
import { GENESIS_HASH } from '../../services/gateway/src/domain/receipt.ts';
import type { ReceiptRequest } from '../../services/gateway/src/routing/receipt-writer.ts';

/** One routed call's receipt request for `subject`, as the gateway would make it. */
export const receiptRequest = (subject: string): ReceiptRequest => ({
  subject,
  taskId: null,
  upstream: 'ext',
  tool: 'ext_read_note',
  observedAt: new Date().toISOString(),
  cacheAgeMs: 0,
  inputSha256: 'a'.repeat(64),
  resultSha256: 'b'.repeat(64),
  runtimeState: 'ok',
  usage: { costMicroUsdc: 5000, cached: false },
});

/** How many of these receipt ids are stored. */
export const storedReceiptCount = async (db: DbHandle, ids: readonly string[]) =>
  (await db.rows<{ n: number }>(sql`select count(*)::int as n from gw_receipts where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`))[0]!.n;

/** The caller's stored chain: does it walk from the genesis hash through every row, unforked? */
export async function receiptChainOf(db: DbHandle, subject: string): Promise<{ walked: number; stored: number; ids: string[] }> {
  const rows = await db.rows<{ id: string; prev_hash: string; receipt_hash: string }>(sql`select id, prev_hash, receipt_hash from gw_receipts where subject = ${subject}`);
  const byPrev = new Map(rows.map((r) => [r.prev_hash, r]));
  expect(byPrev.size).toBe(rows.length);
  let walked = 0;
  for (let r = byPrev.get(GENESIS_HASH); r; r = byPrev.get(r.receipt_hash)) walked += 1;
  return { walked, stored: rows.length, ids: rows.map((r) => r.id) };
}
