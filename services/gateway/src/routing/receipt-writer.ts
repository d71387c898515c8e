import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { ReceiptFlush } from '../config.ts';
import type { ReceiptBody, ReceiptCall } from '../domain/receipt.ts';
import type { UsageLine } from '../store/receipt-store.ts';
import { DeferredReceiptWriter } from './deferred-receipt-writer.ts';
import { GroupCommitReceiptWriter } from './group-commit-receipt-writer.ts';
import type { ReceiptSigner } from './receipt-signer.ts';
import { SoleWriterReceiptWriter } from './sole-writer-receipt-writer.ts';

export interface ReceiptRequest extends ReceiptCall {
  readonly usage: UsageLine;
}

export interface WrittenReceipt extends ReceiptBody {
  readonly receipt_hash: string;
  readonly signature: string;
}

/**
 * Appends receipts to each caller's hash chain (docs/gateway.md, Receipts). `write` resolves with
 * the linked, hashed and signed receipt; `settled` once every receipt returned so far is committed
 * (or reported lost) — readers of receipts await it first; `close` flushes and refuses later writes.
 */
export interface ReceiptWriter {
  /** Where receipts are written (the receipts' own pool on Postgres with `after_answer`). */
  readonly db: DbHandle;
  /** Whether a receipt's row is committed before or after its answer, now (shown on /health). */
  readonly commits: 'before_answer' | 'after_answer';
  write(request: ReceiptRequest): Promise<WrittenReceipt>;
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface ReceiptWriterOptions {
  /**
   * The receipts' database. On Postgres with `after_answer` this is a pool whose connections run
   * with `synchronous_commit=off` (app.ts).
   */
  readonly db: DbHandle;
  readonly signer: ReceiptSigner;
  readonly flush: ReceiptFlush;
  readonly logger: Logger;
  /** How long a deferred batch waits for more receipts (deferred-receipt-writer.ts). */
  readonly lingerMs?: number;
}

/**
 * PGlite: one process owns the database, so with `after_answer` the chain heads held in memory
 * are the truth and the INSERT follows the answer. Postgres: several replicas may extend one
 * caller's chain, so the receipt writer lock says who may do that (sole-writer-receipt-writer.ts):
 * a replica alone writes after the answer, replicas together write before it.
 */
export function createReceiptWriter(options: ReceiptWriterOptions): ReceiptWriter {
  if (options.db.kind === 'postgres') return new SoleWriterReceiptWriter({ ...options, allowSole: options.flush === 'after_answer' });
  if (options.flush === 'after_answer') return new DeferredReceiptWriter(options);
  return new GroupCommitReceiptWriter(options.db, options.signer);
}
