import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { GENESIS_HASH, receiptHash, type ReceiptBody, type RuntimeState } from '../domain/receipt.ts';
import { findChainHead, insertReceiptsWithUsage, isChainConflict, MAX_RECEIPTS_PER_INSERT, type UsageLine } from '../store/receipt-store.ts';
import type { ReceiptSigner } from './receipt-signer.ts';

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

interface Pending {
  readonly request: ReceiptRequest;
  readonly id: string;
  resolve(r: WrittenReceipt): void;
  reject(err: unknown): void;
}

/**
 * Appends receipts to each caller's hash chain. Writes for one caller are serialised in this
 * process (a chain has one head), and whatever queued up while a write was in flight goes out
 * as one multi-row INSERT — group commit — so a busy caller costs one round trip per batch,
 * not per call. Across replicas the unique (subject, prev_hash) index decides: the loser of a
 * race re-reads the head and re-links its batch, so the chain never forks.
 */
export class ReceiptWriter {
  private readonly heads = new Map<string, string>();
  private readonly queues = new Map<string, Pending[]>();
  private readonly busy = new Set<string>();

  constructor(
    private readonly db: DbHandle,
    private readonly signer: ReceiptSigner,
  ) {}

  write(request: ReceiptRequest): Promise<WrittenReceipt> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(request.subject) ?? [];
      queue.push({ request, id: randomUUID(), resolve, reject });
      this.queues.set(request.subject, queue);
      if (!this.busy.has(request.subject)) void this.drain(request.subject);
    });
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
        const r = p.request;
        const body: ReceiptBody = {
          receipt_id: p.id,
          subject,
          task_id: r.taskId,
          upstream: r.upstream,
          tool: r.tool,
          observed_at: r.observedAt,
          cache_age_ms: r.cacheAgeMs,
          input_sha256: r.inputSha256,
          result_sha256: r.resultSha256,
          runtime_state: r.runtimeState,
          prev_hash: prev,
        };
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
