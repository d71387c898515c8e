import type { Db } from '../../../../shared/db/client.ts';
import { fileSendIntents, type SendIntentInput, type SendIntentOutcome } from './file-send-intent.ts';

export interface SendIntentBatcher {
  file(input: SendIntentInput): Promise<SendIntentOutcome>;
}

export interface SendIntentBatcherOptions {
  /** Most proposals in one statement. */
  readonly maxBatch?: number;
  /** Statements in flight at once; later proposals wait and go together in the next one. */
  readonly maxInFlight?: number;
}

interface Pending {
  readonly input: SendIntentInput;
  resolve(outcome: SendIntentOutcome): void;
  reject(err: unknown): void;
}

/**
 * Proposals that arrive while the database is busy go to it together: one statement, one
 * commit and one network write for many, instead of one each (group commit, done by the
 * caller). Each proposal still gets exactly the answer it would get alone (see
 * FILE_SEND_INTENTS). If a statement fails — a deadlock with another replica's batch, a row
 * the database refuses — each of its proposals is filed again on its own, so one proposal's
 * failure is never another's.
 */
export function createSendIntentBatcher(db: Db, options: SendIntentBatcherOptions = {}): SendIntentBatcher {
  const maxBatch = options.maxBatch ?? 64;
  const maxInFlight = options.maxInFlight ?? 2;
  const queue: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;

  function schedule(): void {
    if (scheduled || inFlight >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    // Let this tick's other requests reach the queue first.
    setImmediate(() => {
      scheduled = false;
      while (inFlight < maxInFlight && queue.length > 0) void run(queue.splice(0, maxBatch));
    });
  }

  async function run(batch: Pending[]): Promise<void> {
    inFlight++;
    try {
      const outcomes = await fileByChain(batch.map((p) => p.input));
      batch.forEach((p, i) => p.resolve(outcomes[i]!));
    } catch (err) {
      if (batch.length === 1) batch[0]!.reject(err);
      else await Promise.all(batch.map((p) => fileByChain([p.input]).then(([o]) => p.resolve(o!), p.reject)));
    } finally {
      inFlight--;
      schedule();
    }
  }

  async function fileByChain(inputs: SendIntentInput[]): Promise<SendIntentOutcome[]> {
    const chains = new Set(inputs.map((i) => i.chainId));
    if (chains.size === 1) return fileSendIntents(db, inputs[0]!.chainId, inputs);
    const out = new Map<SendIntentInput, SendIntentOutcome>();
    for (const chainId of chains) {
      const group = inputs.filter((i) => i.chainId === chainId);
      (await fileSendIntents(db, chainId, group)).forEach((o, i) => out.set(group[i]!, o));
    }
    return inputs.map((i) => out.get(i)!);
  }

  return {
    file(input) {
      return new Promise<SendIntentOutcome>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        schedule();
      });
    },
  };
}
