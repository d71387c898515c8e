import type { ReceiptBody } from '../domain/receipt.ts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { gwReceipts } from './schema.ts';

export type ReceiptRow = typeof gwReceipts.$inferSelect;

export interface UsageLine {
  readonly costMicroUsdc: number;
  readonly cached: boolean;
}

/** Is this a unique violation of the chain index — another replica extended the chain first? */
export function isChainConflict(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  const code = e.code ?? e.cause?.code;
  return code === '23505' || /gw_receipts_chain_key/.test(String(e.message ?? '') + String((e.cause as Error | undefined)?.message ?? ''));
}

/**
 * Receipts and their usage lines in one statement (one round trip per batch on the hot path).
 * Rows are inserted in chain order; the unique (subject, prev_hash) index rejects the whole
 * batch if another replica extended the chain first.
 */
export async function insertReceiptsWithUsage(db: DbHandle, items: ReadonlyArray<{ receipt: WrittenReceiptRow; usage: UsageLine }>): Promise<void> {
  if (items.length === 0) return;
  const receiptValues = sql.join(
    items.map(
      ({ receipt: r }) =>
        sql`(${r.receipt_id}::uuid, ${r.subject}, ${r.task_id}, ${r.upstream}, ${r.tool}, ${r.observed_at}::timestamptz, ${r.cache_age_ms}::int, ${r.input_sha256}, ${r.result_sha256}, ${r.runtime_state}, ${r.prev_hash}, ${r.receipt_hash}, ${r.signature})`,
    ),
    sql`, `,
  );
  const usageValues = sql.join(
    items.map(({ receipt: r, usage }) => sql`(${r.subject}, ${r.upstream}, ${r.tool}, ${usage.costMicroUsdc}::bigint, ${usage.cached}::boolean, ${r.receipt_id}::uuid)`),
    sql`, `,
  );
  await db.rows(sql`
    with r as (
      insert into gw_receipts (id, subject, task_id, upstream, tool, observed_at, cache_age_ms, input_sha256, result_sha256, runtime_state, prev_hash, receipt_hash, signature)
      values ${receiptValues}
      returning id
    )
    insert into gw_usage (subject, upstream, tool, cost_micro_usdc, cached, receipt_id)
    select u.subject, u.upstream, u.tool, u.cost, u.cached, u.rid from (values ${usageValues}) as u(subject, upstream, tool, cost, cached, rid)
    where u.rid in (select id from r)`);
}

/** A receipt as stored: the body it commits to, its hash and the gateway's signature over it. */
export type WrittenReceiptRow = ReceiptBody & { readonly receipt_hash: string; readonly signature: string };

/** The hash the caller's next receipt must point at: its newest receipt, or none. */
export async function findChainHead(db: DbHandle, subject: string): Promise<string | undefined> {
  const [row] = await db.rows<{ receipt_hash: string }>(sql`
    select receipt_hash from gw_receipts r where subject = ${subject}
      and not exists (select 1 from gw_receipts n where n.subject = r.subject and n.prev_hash = r.receipt_hash)
    limit 1`);
  return row?.receipt_hash;
}

export async function findReceipts(db: DbHandle, ids: readonly string[]): Promise<ReceiptRow[]> {
  if (ids.length === 0) return [];
  return db.db.select().from(gwReceipts).where(inArray(gwReceipts.id, [...ids]));
}

export async function findReceipt(db: DbHandle, id: string): Promise<ReceiptRow | undefined> {
  const [row] = await db.db.select().from(gwReceipts).where(eq(gwReceipts.id, id));
  return row;
}

export async function usageTotals(db: DbHandle, subject: string): Promise<Array<{ tool: string; calls: number; cost_micro_usdc: number }>> {
  return db.rows(sql`select tool, count(*)::int as calls, coalesce(sum(cost_micro_usdc), 0)::bigint as cost_micro_usdc from gw_usage where subject = ${subject} group by tool order by tool`);
}
