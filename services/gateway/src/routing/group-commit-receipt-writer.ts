import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { GENESIS_HASH, linkReceipt, receiptHash } from '../domain/receipt.ts';
import { findChainHead, insertReceiptsWithUsage, isChainConflict, MAX_RECEIPTS_PER_INSERT, type ReceiptInsertGuard } from '../store/receipt-store.ts';
import type { ReceiptSigner } from './receipt-signer.ts';
import type { ReceiptRequest, ReceiptWriter, WrittenReceipt } from './receipt-writer.ts';

interface Pending {
  readonly request: ReceiptRequest;
  readonly id: string;
  resolve(r: WrittenReceipt): void;
  reject(err: unknown): void;
}

/**
 * The answer waits for its receipt's INSERT (`before_answer`, and every mode on Postgres). Writes
 * for one caller are serialised in this process (a chain has one head), and whatever queued up
 * while a write was in flight goes out as one multi-row INSERT — group commit — so a busy caller
 * costs one round trip per batch, not per call. Across replicas the unique (subject, prev_hash)
 * index decides: the loser of a race re-reads the head and re-links its batch, so the chain never
 * forks.
 */
export class GroupCommitReceiptWriter implements ReceiptWriter {
  readonly commits = 'before_answer';
  private readonly heads = new Map<string, string>();
  private readonly queues = new Map<string, Pending[]>();
  private readonly busy = new Set<string>();

  constructor(
    readonly db: DbHandle,
    private readonly signer: ReceiptSigner,
    private readonly insertGuard?: ReceiptInsertGuard,
  ) {}

  write(request: ReceiptRequest): Promise<WrittenReceipt> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(request.subject) ?? [];
      queue.push({ request, id: randomUUID(), resolve, reject });
      this.queues.set(request.subject, queue);
      if (!this.busy.has(request.subject)) void this.drain(request.subject);
    });
  }

  /** Every receipt returned is already committed. */
  async settled(): Promise<void> {}

  async close(): Promise<void> {}

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
        const body = linkReceipt(p.id, p.request, prev);
        const hash = receiptHash(body);
        written.push({ ...body, receipt_hash: hash, signature: await this.signer.sign(hash) });
        prev = hash;
      }
      try {
        await insertReceiptsWithUsage(
          this.db,
          written.map((w, i) => ({ receipt: w, usage: batch[i]!.request.usage })),
          this.insertGuard,
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
