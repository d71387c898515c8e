import type { ReceiptBody } from '../domain/receipt.ts';
import { inArray, sql } from 'drizzle-orm';
import type { Config } from '../../../../shared/config.ts';
import { openDb, type DbHandle } from '../../../../shared/db/client.ts';
import { runPrepared } from '../../../../shared/db/prepared-statement.ts';
import type { ReceiptFlush } from '../config.ts';
import { receiptLockRows, type ReceiptLockKey } from './receipt-writer-lock.ts';
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

/** The most receipts one INSERT carries; a longer queue goes out in several batches. */
export const MAX_RECEIPTS_PER_INSERT = 128;

const RECEIPT_COLUMNS = [
  ['id', 'uuid'], ['subject', 'text'], ['task_id', 'text'], ['upstream', 'text'], ['tool', 'text'], ['observed_at', 'timestamptz'],
  ['cache_age_ms', 'int'], ['input_sha256', 'text'], ['result_sha256', 'text'], ['runtime_state', 'text'], ['prev_hash', 'text'],
  ['receipt_hash', 'text'], ['signature', 'text'], ['cost_micro_usdc', 'bigint'], ['cached', 'boolean'],
] as const;
/**
 * The whole batch is one JSON parameter that Postgres unpacks with `json_to_recordset`: one
 * statement text for every batch size (prepared once per connection), and 20–40 % less CPU per
 * row on PGlite, about half on postgres.js, than a multi-row VALUES list with 15 parameters a row
 * (bench/gateway/receipt-insert.ts).
 */
const INSERT_RECEIPTS = `insert into gw_receipts (${RECEIPT_COLUMNS.map(([c]) => c).join(', ')})
  select ${RECEIPT_COLUMNS.map(([c]) => c).join(', ')} from json_to_recordset($1::json) as r(${RECEIPT_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})`;

/**
 * Who may write, on Postgres (store/receipt-writer-lock.ts). `shared`: the INSERT takes the lock
 * shared for its own transaction, so it waits while a sole writer holds it exclusively — it never
 * lands behind that writer's unwritten receipts. `exclusive`: the rows go in only while the
 * session `pid` still holds the lock exclusively; if that session died, another replica may be
 * writing, and the batch is refused rather than forking a chain.
 */
export type ReceiptInsertGuard =
  | { readonly kind: 'shared'; readonly key: ReceiptLockKey }
  | { readonly kind: 'exclusive'; readonly key: ReceiptLockKey; readonly pid: number };

const GUARDED_INSERT = {
  shared: `${INSERT_RECEIPTS} cross join (select pg_advisory_xact_lock_shared($2::int4, $3::int4)) as writer_lock`,
  exclusive: `${INSERT_RECEIPTS} where exists (select 1 from pg_locks where ${receiptLockRows(2, 3)} and pid = $4::int4 and mode = 'ExclusiveLock' and granted) returning 1`,
};

/** The sole writer's lock was gone when its batch was written; the batch was not stored. */
export class ReceiptWriterLockLostError extends Error {}

/**
 * Receipts with their usage (cost, cached) in one single-table INSERT — one round trip and one
 * row per call. The unique (subject, prev_hash) index rejects the whole batch if another replica
 * extended the chain first.
 */
export async function insertReceiptsWithUsage(db: DbHandle, items: ReadonlyArray<{ receipt: WrittenReceiptRow; usage: UsageLine }>, guard?: ReceiptInsertGuard): Promise<void> {
  if (items.length === 0) return;
  if (items.length > MAX_RECEIPTS_PER_INSERT) throw new RangeError(`at most ${MAX_RECEIPTS_PER_INSERT} receipts per INSERT`);
  const rows = items.map(({ receipt: r, usage }) => ({
    id: r.receipt_id, subject: r.subject, task_id: r.task_id, upstream: r.upstream, tool: r.tool, observed_at: r.observed_at,
    cache_age_ms: r.cache_age_ms, input_sha256: r.input_sha256, result_sha256: r.result_sha256, runtime_state: r.runtime_state,
    prev_hash: r.prev_hash, receipt_hash: r.receipt_hash, signature: r.signature, cost_micro_usdc: usage.costMicroUsdc, cached: usage.cached,
  }));
  const batch = JSON.stringify(rows);
  if (!guard) return void (await runPrepared(db.db, INSERT_RECEIPTS, [batch]));
  if (guard.kind === 'shared') return void (await runPrepared(db.db, GUARDED_INSERT.shared, [batch, ...guard.key]));
  const stored = await runPrepared(db.db, GUARDED_INSERT.exclusive, [batch, ...guard.key, guard.pid]);
  if (stored.length !== items.length) throw new ReceiptWriterLockLostError('this gateway no longer holds the receipt writer lock; the batch was not stored');
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

/** Connections in the receipts' own pool: group commit keeps one INSERT in flight per caller. */
const RECEIPT_POOL_SIZE = 4;

/**
 * The handle receipts are written through. `after_answer` on Postgres gets a small pool of its
 * own whose commits do not wait for the WAL flush (`synchronous_commit=off` as a connection
 * startup parameter, so every connection the pool ever opens has it, and nothing else in the
 * gateway loses durability). The row is visible to every replica at once; a Postgres crash can
 * lose the last ~3 × wal_writer_delay of receipts. Otherwise this is `db` itself; the caller
 * closes the handle only if it is not `db`.
 */
export async function openReceiptDb(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>, db: DbHandle, flush: ReceiptFlush): Promise<DbHandle> {
  if (flush !== 'after_answer' || db.kind !== 'postgres') return db;
  return openDb({ databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema, dataDir: config.dataDir, databasePoolSize: RECEIPT_POOL_SIZE }, { connection: { synchronous_commit: 'off' } });
}
