import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import { receiptLockKey, ReceiptWriterLock } from '../store/receipt-writer-lock.ts';
import { DeferredReceiptWriter } from './deferred-receipt-writer.ts';
import { GroupCommitReceiptWriter } from './group-commit-receipt-writer.ts';
import type { ReceiptRequest, ReceiptWriter, ReceiptWriterOptions, WrittenReceipt } from './receipt-writer.ts';

/** How often the lock is looked at: a new replica's first receipts wait at most about this long. */
export const RECEIPT_LOCK_POLL_MS = 100;
/** How often a shared writer checks whether it has become the only one. */
const STEP_UP_EVERY_POLLS = 10;

export type ReceiptWriterRole = 'starting' | 'sole' | 'shared' | 'closed';

/**
 * Receipts on Postgres. Alone, a replica is the **sole** writer: it holds the receipt writer lock
 * (store/receipt-writer-lock.ts) exclusively and writes rows after the answer, in batches, as on
 * PGlite — the added latency of one INSERT round trip per call is gone. With other replicas it is a
 * **shared** writer: every INSERT comes before the answer and the unique chain index decides.
 *
 * The hand-over is in the database. A replica that starts asks for the lock shared and waits in
 * pg_locks; the sole writer sees the waiter within RECEIPT_LOCK_POLL_MS, writes everything it has
 * queued, takes the lock shared too and only then lets go of exclusive — so nobody links a receipt
 * onto a head that is not yet stored. A shared writer that finds itself alone steps up again once
 * its own INSERTs are done. With `before_answer` (`allowSole: false`) a replica only ever holds
 * the lock shared, which also keeps every other replica from becoming a sole writer.
 *
 * What it costs: while sole, receipts already answered but not yet stored are lost if this process
 * dies — at most one batch, as on PGlite (docs/gateway.md). If the lock's own connection dies, the
 * queued batch fails its lock check and is reported lost rather than forking a chain.
 */
export class SoleWriterReceiptWriter implements ReceiptWriter {
  readonly db: DbHandle;
  private readonly options: ReceiptWriterOptions;
  private readonly logger: Logger;
  private readonly allowSole: boolean;
  private lock: ReceiptWriterLock | undefined;
  private current: ReceiptWriter;
  private roleNow: ReceiptWriterRole = 'starting';
  /** Set while the role changes; writes wait for it. */
  private switching: Promise<void> | undefined;
  private inflight = 0;
  private drained: (() => void) | undefined;
  private closed = false;
  private readonly watching: Promise<void>;
  private wakeWatcher: (() => void) | undefined;

  constructor(options: ReceiptWriterOptions & { allowSole: boolean }) {
    this.db = options.db;
    this.options = options;
    this.logger = options.logger;
    this.allowSole = options.allowSole;
    this.current = this.sharedWriter();
    this.switching = this.start();
    this.watching = this.switching.then(() => this.watch());
  }

  /** `sole` (rows after the answer), `shared` (rows before it), while starting, or closed. */
  get role(): ReceiptWriterRole {
    return this.roleNow;
  }

  get commits(): 'before_answer' | 'after_answer' {
    return this.roleNow === 'sole' ? 'after_answer' : 'before_answer';
  }

  async write(request: ReceiptRequest): Promise<WrittenReceipt> {
    while (this.switching) await this.switching;
    // Nothing awaits between the check above and this count: a role change waits for it to drop.
    this.inflight += 1;
    try {
      return await this.current.write(request);
    } finally {
      this.inflight -= 1;
      if (this.inflight === 0) this.drained?.();
    }
  }

  async settled(): Promise<void> {
    while (this.switching) await this.switching;
    await this.current.settled();
  }

  async close(): Promise<void> {
    if (this.closed) return this.watching;
    this.closed = true;
    this.wakeWatcher?.();
    await this.watching;
    await this.current.close();
    this.roleNow = 'closed';
    await this.lock?.release();
    this.lock = undefined;
  }

  private sharedWriter(): ReceiptWriter {
    return new GroupCommitReceiptWriter(this.db, this.options.signer, { kind: 'shared', key: receiptLockKey(this.db.schema) });
  }

  private async start(): Promise<void> {
    try {
      this.lock = await ReceiptWriterLock.open(this.db);
      if (this.allowSole && (await this.lock.tryExclusive())) this.becomeSole(this.lock);
      else {
        await this.lock.lockShared();
        this.roleNow = 'shared';
      }
    } catch (err) {
      // Without the lock's session every INSERT still takes the lock for its own transaction, so
      // writing before the answer stays correct; the next poll tries the session again.
      this.logger.warn({ error: String((err as Error).message ?? err) }, 'receipt writer lock unavailable; receipts are written before the answer');
      await this.lock?.release();
      this.lock = undefined;
      this.roleNow = 'shared';
    } finally {
      this.switching = undefined;
    }
  }

  private becomeSole(lock: ReceiptWriterLock): void {
    this.current = new DeferredReceiptWriter({ ...this.options, insertGuard: { kind: 'exclusive', key: lock.key, pid: lock.pid } });
    this.roleNow = 'sole';
  }

  /** One loop, so two role changes never overlap. */
  private async watch(): Promise<void> {
    for (let polls = 1; !this.closed; polls++) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECEIPT_LOCK_POLL_MS);
        timer.unref();
        this.wakeWatcher = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeWatcher = undefined;
      if (this.closed) break;
      try {
        if (this.roleNow === 'sole') await this.checkSole();
        else if (!this.lock) await this.reopenShared();
        else if (this.allowSole && polls % STEP_UP_EVERY_POLLS === 0) await this.tryStepUp();
      } catch (err) {
        // The lock's session failed. As a sole writer that means another replica may already be
        // writing: step down (the queued batch is refused by its lock check, not forked).
        this.logger.warn({ error: String((err as Error).message ?? err), role: this.roleNow }, 'receipt writer lock session failed');
        await this.changeRole(async () => {
          await this.current.close();
          await this.lock?.release();
          this.lock = undefined;
          this.current = this.sharedWriter();
          this.roleNow = 'shared';
        });
      }
    }
  }

  private async checkSole(): Promise<void> {
    const lock = this.lock!;
    const state = await lock.state('exclusive');
    if (!state.held) throw new Error('the exclusive receipt writer lock was lost');
    if (state.waiting === 0) return;
    await this.changeRole(async () => {
      // Everything answered so far is stored before anyone else may link onto these chains.
      await this.current.close();
      await lock.lockShared();
      await lock.unlockExclusive();
      this.current = this.sharedWriter();
      this.roleNow = 'shared';
    });
    this.logger.info({ role: 'shared' }, 'another gateway writes receipts too; receipts are now written before the answer');
  }

  private async tryStepUp(): Promise<void> {
    const lock = this.lock!;
    // A cheap look first, so a replica among others does not pause its writes every few polls.
    if ((await lock.state('shared')).otherHolders > 0) return;
    let stepped = false;
    await this.changeRole(async () => {
      // Our own INSERTs are done (changeRole waited for them), so none holds the lock shared now.
      if (!(await lock.tryExclusive())) return;
      await lock.unlockShared();
      this.becomeSole(lock);
      stepped = true;
    });
    if (stepped) this.logger.info({ role: 'sole' }, 'this gateway is the only receipt writer; receipts are written after the answer');
  }

  private async reopenShared(): Promise<void> {
    const lock = await ReceiptWriterLock.open(this.db);
    try {
      await lock.lockShared();
    } catch (err) {
      await lock.release();
      throw err;
    }
    this.lock = lock;
  }

  /** Holds new writes, waits for those under way, then runs `change`. */
  private async changeRole(change: () => Promise<void>): Promise<void> {
    let open!: () => void;
    this.switching = new Promise<void>((resolve) => (open = resolve));
    try {
      if (this.inflight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = undefined;
      await change();
    } finally {
      this.switching = undefined;
      open();
    }
  }
}
