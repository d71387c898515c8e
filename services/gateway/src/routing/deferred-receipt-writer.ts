import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import { GENESIS_HASH, linkReceipt, receiptHash, type ReceiptBody } from '../domain/receipt.ts';
import { findChainHead, insertReceiptsWithUsage, MAX_RECEIPTS_PER_INSERT, type ReceiptInsertGuard, type UsageLine } from '../store/receipt-store.ts';
import type { ReceiptSigner } from './receipt-signer.ts';
import type { ReceiptRequest, ReceiptWriter, ReceiptWriterOptions, WrittenReceipt } from './receipt-writer.ts';

/** How long a deferred batch waits for more receipts before its INSERT; see lingerForBatch. */
export const DEFERRED_LINGER_MS = 50;

/** A receipt already returned to its caller, waiting for its INSERT. */
interface Queued {
  readonly seq: number;
  readonly body: ReceiptBody;
  readonly hash: string;
  readonly signature: Promise<string>;
  readonly usage: UsageLine;
}

/**
 * The INSERT follows the answer (`after_answer` on PGlite, and on Postgres while this replica is
 * the sole writer): one process owns a PGlite database, and a sole writer holds the receipt writer
 * lock exclusively, so the heads held here are the truth. A receipt is linked, hashed and signed at once and
 * returned; its row joins a batch that goes out as one multi-row INSERT (see lingerForBatch).
 */
export class DeferredReceiptWriter implements ReceiptWriter {
  readonly db: DbHandle;
  readonly commits = 'after_answer';
  private readonly signer: ReceiptSigner;
  private readonly logger: Logger;
  private readonly lingerMs: number;
  private readonly insertGuard: ReceiptInsertGuard | undefined;
  private readonly heads = new Map<string, string>();
  private readonly headLoads = new Map<string, Promise<void>>();
  private queued: Queued[] = [];
  private lastSeq = 0;
  private flushing = false;
  private readonly settledWaiters: Array<{ seq: number; resolve(): void }> = [];
  private closed = false;
  /** Ends the current linger early (a full batch, a reader, close). */
  private cutLinger: (() => void) | undefined;

  constructor({ db, signer, logger, lingerMs = DEFERRED_LINGER_MS, insertGuard }: ReceiptWriterOptions & { insertGuard?: ReceiptInsertGuard }) {
    this.db = db;
    this.signer = signer;
    this.logger = logger;
    this.lingerMs = lingerMs;
    this.insertGuard = insertGuard;
  }

  /** Resolves when every receipt returned so far is committed (or reported lost). */
  settled(): Promise<void> {
    if (this.queued.length === 0 && !this.flushing) return Promise.resolve();
    return new Promise((resolve) => {
      this.settledWaiters.push({ seq: this.lastSeq, resolve });
      this.cutLinger?.();
    });
  }

  /** Flushes what is queued; later writes are refused, since nothing would store them. */
  async close(): Promise<void> {
    this.closed = true;
    await this.settled();
  }

  async write(request: ReceiptRequest): Promise<WrittenReceipt> {
    const { subject } = request;
    while (!this.heads.has(subject)) await this.loadHead(subject);
    if (this.closed) throw new Error('receipt writer is closed');
    // From here to the push nothing awaits: linking, the new head and the queue order are one step.
    const body = linkReceipt(randomUUID(), request, this.heads.get(subject)!);
    const hash = receiptHash(body);
    this.heads.set(subject, hash);
    const signature = this.signer.sign(hash);
    this.queued.push({ seq: ++this.lastSeq, body, hash, signature, usage: request.usage });
    if (!this.flushing) void this.flushQueued();
    else if (this.queued.length >= MAX_RECEIPTS_PER_INSERT) this.cutLinger?.();
    return { ...body, receipt_hash: hash, signature: await signature };
  }

  /**
   * Holds a deferred batch open for up to `lingerMs` so that more answers join it — unless it is
   * already full or a reader is waiting for it. On PGlite the INSERT runs in this thread, and with
   * a data directory its commit writes the WAL files from that thread too: one INSERT per answer delayed
   * most of the next calls (added p50 at concurrency 1: 2.0–2.2 ms with a 20 ms batch, 0.9–1.7 ms
   * with 50 ms, bench/gateway). The price is a wider window in which a crash of this process loses
   * receipts already answered (docs/gateway.md, Receipts).
   */
  private lingerForBatch(): Promise<void> {
    if (this.queued.length >= MAX_RECEIPTS_PER_INSERT || this.settledWaiters.length > 0 || this.closed) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.cutLinger = undefined;
        resolve();
      }, this.lingerMs);
      this.cutLinger = () => {
        clearTimeout(timer);
        this.cutLinger = undefined;
        resolve();
      };
    });
  }

  /**
   * Only called while this caller has no receipt queued or in flight (at first sight, or after a
   * lost batch), so the database's head is final.
   */
  private loadHead(subject: string): Promise<void> {
    let load = this.headLoads.get(subject);
    if (!load) {
      load = findChainHead(this.db, subject)
        .then((head) => void this.heads.set(subject, head ?? GENESIS_HASH))
        .finally(() => this.headLoads.delete(subject));
      this.headLoads.set(subject, load);
    }
    return load;
  }

  private async flushQueued(): Promise<void> {
    this.flushing = true;
    try {
      for (;;) {
        await this.lingerForBatch();
        const batch = this.queued.splice(0, MAX_RECEIPTS_PER_INSERT);
        if (batch.length === 0) return;
        try {
          const items = await Promise.all(batch.map(async (q) => ({ receipt: { ...q.body, receipt_hash: q.hash, signature: await q.signature }, usage: q.usage })));
          await insertReceiptsWithUsage(this.db, items, this.insertGuard);
        } catch (err) {
          this.forgetLost(batch, err);
        }
        this.wakeSettled();
      }
    } finally {
      this.flushing = false;
      this.wakeSettled();
    }
  }

  /**
   * A lost batch also takes its callers' receipts still queued: each links onto a lost one, and
   * storing it would leave a gap that hides where the chain really ends. Dropping them keeps the
   * stored chain linear, and `validate_task_result` rejects every lost receipt (fail closed).
   * Their callers' heads are re-read from the database before their next receipt.
   */
  private forgetLost(batch: Queued[], err: unknown): void {
    const subjects = new Set(batch.map((q) => q.body.subject));
    const linked = this.queued.filter((q) => subjects.has(q.body.subject));
    this.queued = this.queued.filter((q) => !subjects.has(q.body.subject));
    for (const subject of subjects) this.heads.delete(subject);
    // Only the message and code: a driver error may carry the statement's parameters, and those
    // hold the receipts' signatures.
    const e = err as { message?: unknown; code?: unknown };
    this.logger.error(
      { receiptsLost: batch.length + linked.length, callers: subjects.size, error: String(e?.message ?? err), code: e?.code },
      'receipt INSERT failed after the answer; these receipts are lost and will not validate',
    );
  }

  private wakeSettled(): void {
    const firstPending = this.flushing ? (this.queued[0]?.seq ?? Infinity) : Infinity;
    for (let i = this.settledWaiters.length - 1; i >= 0; i--) {
      const waiter = this.settledWaiters[i]!;
      if (waiter.seq < firstPending) {
        this.settledWaiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}
