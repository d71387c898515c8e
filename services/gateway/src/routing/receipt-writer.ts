import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { ReceiptFlush } from '../config.ts';
import { GENESIS_HASH, receiptHash, type ReceiptBody, type RuntimeState } from '../domain/receipt.ts';
import { findChainHead, insertReceiptsWithUsage, isChainConflict, MAX_RECEIPTS_PER_INSERT, type UsageLine } from '../store/receipt-store.ts';
import type { ReceiptSigner } from './receipt-signer.ts';

/** How long a deferred batch waits for more receipts before its INSERT (PGlite, `after_answer`); see lingerForBatch. */
export const DEFERRED_LINGER_MS = 50;

export interface ReceiptRequest {
  readonly subject: string;
  readonly taskId: string | null;
  readonly upstream: string;
  readonly tool: string;
  readonly observedAt: string;
  readonly cacheAgeMs: number;
  readonly inputSha256: string;
  readonly resultSha256: string;
  readonly runtimeState: RuntimeState;
  readonly usage: UsageLine;
}

export interface WrittenReceipt extends ReceiptBody {
  readonly receipt_hash: string;
  readonly signature: string;
}

export interface ReceiptWriterOptions {
  /**
   * The receipts' database. On Postgres with `after_answer` this is a pool whose connections run
   * with `synchronous_commit=off` (app.ts); the INSERT still happens before the answer.
   */
  readonly db: DbHandle;
  readonly signer: ReceiptSigner;
  readonly flush: ReceiptFlush;
  readonly logger: Logger;
  /** How long a deferred batch waits for more receipts (default DEFERRED_LINGER_MS). */
  readonly lingerMs?: number;
}

interface Pending {
  readonly request: ReceiptRequest;
  readonly id: string;
  resolve(r: WrittenReceipt): void;
  reject(err: unknown): void;
}

/** A receipt already returned to its caller, waiting for its INSERT (PGlite, `after_answer`). */
interface Queued {
  readonly seq: number;
  readonly body: ReceiptBody;
  readonly hash: string;
  readonly signature: Promise<string>;
  readonly usage: UsageLine;
}

/**
 * Appends receipts to each caller's hash chain (docs/gateway.md, Receipts).
 *
 * Awaited INSERT (`before_answer`, and every mode on Postgres): writes for one caller are
 * serialised in this process (a chain has one head), and whatever queued up while a write was in
 * flight goes out as one multi-row INSERT — group commit — so a busy caller costs one round trip
 * per batch, not per call. Across replicas the unique (subject, prev_hash) index decides: the
 * loser of a race re-reads the head and re-links its batch, so the chain never forks.
 *
 * Deferred INSERT (`after_answer` on PGlite): one process owns a PGlite database, so the heads
 * held here are the truth. A receipt is linked, hashed and signed at once and returned; its row
 * joins a queue that goes out as multi-row INSERTs after the current turn of the event loop.
 * Readers of receipts await `settled()` first.
 */
export class ReceiptWriter {
  /** Where receipts are written (the receipts' own pool on Postgres with `after_answer`). */
  readonly db: DbHandle;
  private readonly signer: ReceiptSigner;
  private readonly logger: Logger;
  private readonly defersInsert: boolean;
  private readonly heads = new Map<string, string>();
  private readonly queues = new Map<string, Pending[]>();
  private readonly busy = new Set<string>();
  private readonly headLoads = new Map<string, Promise<void>>();
  private queued: Queued[] = [];
  private lastSeq = 0;
  private flushing = false;
  private readonly settledWaiters: Array<{ seq: number; resolve(): void }> = [];
  private closed = false;
  /** Ends the current linger early (a full batch, a reader, close). */
  private cutLinger: (() => void) | undefined;

  private readonly lingerMs: number;

  constructor({ db, signer, flush, logger, lingerMs = DEFERRED_LINGER_MS }: ReceiptWriterOptions) {
    this.db = db;
    this.lingerMs = lingerMs;
    this.signer = signer;
    this.logger = logger;
    // Several replicas may extend one caller's chain on Postgres, so only the database can say
    // where the head is: the INSERT stays before the answer there (only its fsync is deferred).
    this.defersInsert = flush === 'after_answer' && db.kind === 'pglite';
  }

  write(request: ReceiptRequest): Promise<WrittenReceipt> {
    if (this.defersInsert) return this.writeDeferred(request);
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(request.subject) ?? [];
      queue.push({ request, id: randomUUID(), resolve, reject });
      this.queues.set(request.subject, queue);
      if (!this.busy.has(request.subject)) void this.drain(request.subject);
    });
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

  private async writeDeferred(request: ReceiptRequest): Promise<WrittenReceipt> {
    const { subject } = request;
    while (!this.heads.has(subject)) await this.loadHead(subject);
    if (this.closed) throw new Error('receipt writer is closed');
    // From here to the push nothing awaits: linking, the new head and the queue order are one step.
    const body = receiptBody(randomUUID(), request, this.heads.get(subject)!);
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
          await insertReceiptsWithUsage(this.db, items);
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

  private async drain(subject: string): Promise<void> {
    this.busy.add(subject);
    try {
      for (;;) {
        // Let I/O that is already waiting (other calls' upstream answers) reach this queue first.
        // On PGlite the INSERT runs synchronously in this thread, so without this turn of the
        // event loop nothing can join a batch and group commit degenerates to one row per INSERT.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const queue = this.queues.get(subject) ?? [];
        const batch = queue.splice(0, MAX_RECEIPTS_PER_INSERT);
        if (queue.length === 0) this.queues.delete(subject);
        if (batch.length === 0) return;
        try {
          const written = await this.writeBatch(subject, batch);
          batch.forEach((p, i) => p.resolve(written[i]!));
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.busy.delete(subject);
    }
  }

  private async writeBatch(subject: string, batch: Pending[]): Promise<WrittenReceipt[]> {
    for (let attempt = 0; ; attempt++) {
      let prev = this.heads.get(subject) ?? (await findChainHead(this.db, subject)) ?? GENESIS_HASH;
      const written: WrittenReceipt[] = [];
      for (const p of batch) {
        const body = receiptBody(p.id, p.request, prev);
        const hash = receiptHash(body);
        written.push({ ...body, receipt_hash: hash, signature: await this.signer.sign(hash) });
        prev = hash;
      }
      try {
        await insertReceiptsWithUsage(
          this.db,
          written.map((w, i) => ({ receipt: w, usage: batch[i]!.request.usage })),
        );
        this.heads.set(subject, prev);
        return written;
      } catch (err) {
        this.heads.delete(subject);
        if (!isChainConflict(err) || attempt >= 4) throw err;
      }
    }
  }
}

function receiptBody(id: string, r: ReceiptRequest, prevHash: string): ReceiptBody {
  return {
    receipt_id: id,
    subject: r.subject,
    task_id: r.taskId,
    upstream: r.upstream,
    tool: r.tool,
    observed_at: r.observedAt,
    cache_age_ms: r.cacheAgeMs,
    input_sha256: r.inputSha256,
    result_sha256: r.resultSha256,
    runtime_state: r.runtimeState,
    prev_hash: prevHash,
  };
}
