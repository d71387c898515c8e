import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { ReceiptFlush } from '../config.ts';
import type { ReceiptBody, ReceiptCall } from '../domain/receipt.ts';
import type { UsageLine } from '../store/receipt-store.ts';
import { DeferredReceiptWriter } from './deferred-receipt-writer.ts';
import { GroupCommitReceiptWriter } from './group-commit-receipt-writer.ts';
import type { ReceiptSigner } from './receipt-signer.ts';

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
  write(request: ReceiptRequest): Promise<WrittenReceipt>;
  settled(): Promise<void>;
  close(): Promise<void>;
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
  /** How long a deferred batch waits for more receipts (deferred-receipt-writer.ts). */
  readonly lingerMs?: number;
}

/**
 * The INSERT follows the answer only with `after_answer` on PGlite, where one process owns the
 * database and so the chain heads held in memory are the truth. Several replicas may extend one
 * caller's chain on Postgres, so only the database can say where the head is: the INSERT stays
 * before the answer there (only its fsync is deferred, by the pool `db` is).
 */
export function createReceiptWriter(options: ReceiptWriterOptions): ReceiptWriter {
  if (options.flush === 'after_answer' && options.db.kind === 'pglite') return new DeferredReceiptWriter(options);
  return new GroupCommitReceiptWriter(options.db, options.signer);
}
