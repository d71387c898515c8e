import { createHash } from 'node:crypto';
import type { DbHandle, DbSession } from '../../../../shared/db/client.ts';

/**
 * Which gateways write receipts on Postgres, as one advisory lock per receipts schema, held on a
 * connection of the gateway's own (docs/gateway.md, "When a receipt is committed"):
 *
 * - **exclusive**: this replica is the only writer, so the chain heads it holds in memory are the
 *   truth and a receipt's row may follow the answer;
 * - **shared**: one of several writers; every INSERT comes before the answer and the unique
 *   (subject, prev_hash) index decides which receipt is next.
 *
 * A replica that wants the shared lock while another holds it exclusively waits in `pg_locks`;
 * that waiting entry is how the exclusive holder learns it must step down.
 */
export type ReceiptLockKey = readonly [number, number];

/** The first half of the key says "gateway receipts"; the second is the schema's, so test schemas on one server never meet. */
const RECEIPTS_LOCK_CLASS = 0x67770001;

export function receiptLockKey(schema: string): ReceiptLockKey {
  return [RECEIPTS_LOCK_CLASS, createHash('sha256').update(schema).digest().readInt32BE(0) & 0x7fffffff];
}

/** SQL matching this lock's rows in pg_locks, the key's two halves in parameters `$k1` and `$k2`. */
export function receiptLockRows(k1: number, k2: number): string {
  return `locktype = 'advisory' and database = (select oid from pg_database where datname = current_database()) and classid::int8 = $${k1}::int8 and objid::int8 = $${k2}::int8 and objsubid = 2`;
}
const THIS_LOCK = receiptLockRows(1, 2);

export interface ReceiptLockState {
  /** Does this session hold the lock in that mode? False after the session was lost and replaced. */
  readonly held: boolean;
  /** Other sessions waiting for the lock (a replica that wants to write). */
  readonly waiting: number;
  /** Other sessions holding it shared. */
  readonly otherHolders: number;
}

export class ReceiptWriterLock {
  private constructor(
    private readonly session: DbSession,
    readonly key: ReceiptLockKey,
    /** The backend holding the lock; the exclusive holder's INSERTs check it is still there. */
    readonly pid: number,
  ) {}

  static async open(db: DbHandle): Promise<ReceiptWriterLock> {
    if (!db.openSession) throw new Error('receipt writer lock needs a Postgres database');
    const session = await db.openSession();
    try {
      const [row] = await within(LOCK_QUERY_MS, session.query<{ pid: number }>('select pg_backend_pid() as pid'));
      return new ReceiptWriterLock(session, receiptLockKey(db.schema), Number(row!.pid));
    } catch (err) {
      await session.close().catch(() => undefined);
      throw err;
    }
  }

  async tryExclusive(): Promise<boolean> {
    const [row] = await within(LOCK_QUERY_MS, this.session.query<{ ok: boolean }>('select pg_try_advisory_lock($1::int4, $2::int4) as ok', this.key));
    return row!.ok === true;
  }

  /** Waits while another session holds the lock exclusively (it steps down within a poll or two). */
  async lockShared(): Promise<void> {
    await within(LOCK_WAIT_MS, this.session.query('select pg_advisory_lock_shared($1::int4, $2::int4)', this.key));
  }

  async unlockExclusive(): Promise<void> {
    await within(LOCK_QUERY_MS, this.session.query('select pg_advisory_unlock($1::int4, $2::int4)', this.key));
  }

  async unlockShared(): Promise<void> {
    await within(LOCK_QUERY_MS, this.session.query('select pg_advisory_unlock_shared($1::int4, $2::int4)', this.key));
  }

  async state(mode: 'exclusive' | 'shared'): Promise<ReceiptLockState> {
    const [row] = await within(LOCK_QUERY_MS, this.session.query<{ held: boolean; waiting: number; other_holders: number }>(
      `select
         exists (select 1 from pg_locks where ${THIS_LOCK} and pid = pg_backend_pid() and granted and mode = $3::text) as held,
         (select count(*)::int from pg_locks where ${THIS_LOCK} and not granted) as waiting,
         (select count(*)::int from pg_locks where ${THIS_LOCK} and granted and pid <> pg_backend_pid()) as other_holders`,
      [...this.key, mode === 'exclusive' ? 'ExclusiveLock' : 'ShareLock'],
    ));
    return { held: row!.held === true, waiting: Number(row!.waiting), otherHolders: Number(row!.other_holders) };
  }

  /** Ends the session; Postgres drops every lock it held. */
  async release(): Promise<void> {
    await this.session.close().catch(() => undefined);
  }
}

/** A lock query that takes longer than this counts as a lost session (a sole writer steps down). */
const LOCK_QUERY_MS = 5_000;
/** How long a new writer waits for a sole writer to hand over before writing without the session lock. */
const LOCK_WAIT_MS = 30_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`receipt writer lock: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
