import { randomBytes } from 'node:crypto';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { PaymentsConfig } from '../config.ts';
import { expireStaleIntents } from '../store/intent-store.ts';
import { settleSendBatch } from '../store/send-batch-settlement.ts';
import { claimApproved, markSubmitted, reclaimStale, settleSubmitted } from '../store/settlement-store.ts';

export const WORK_CHANNEL = 'pay_work';

export interface SettlementWorker {
  readonly workerId: string;
  /** One pass: resume stale work, claim a batch, submit and settle it. Returns intents settled. */
  runOnce(): Promise<number>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface SettlementWorkerOptions {
  readonly handle: DbHandle;
  readonly config: PaymentsConfig;
  readonly logger: Logger;
  readonly now?: () => Date;
  readonly workerId?: string;
  /** Test switch: stop each pass after `submitted`, as a worker killed before applying would. */
  readonly dangerouslyStopAfterSubmitted?: boolean;
}

/**
 * Settles approved intents: approved → submitting (claim, FOR UPDATE SKIP LOCKED) → submitted
 * (message id minted) → completed | failed (postings and status in one transaction). Any number
 * of workers may run against one database; work a dead worker held past its lease resumes here,
 * and the single-transaction settle means it is never applied twice.
 */
export function createSettlementWorker(options: SettlementWorkerOptions): SettlementWorker {
  const { handle, config, logger } = options;
  const now = options.now ?? (() => new Date());
  const workerId = options.workerId ?? `w${randomBytes(5).toString('hex')}`;
  const db = handle.db;
  // PGlite is one connection: concurrent settles would only queue; Postgres gets a few in flight.
  const parallelism = handle.kind === 'postgres' ? 6 : 1;
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;

  async function settleAll(ids: readonly string[]): Promise<number> {
    // Sends (the common case) settle as one set-based transaction per batch; everything else,
    // and any send the batch could not take (a deadlock, a constraint), settles one by one.
    let batched: string[] = [];
    try {
      batched = await settleSendBatch(db, workerId, ids);
    } catch (err) {
      logger.warn({ err, workerId, intents: ids.length }, 'batched send settlement failed; settling one by one');
    }
    const done = new Set(batched);
    const rest = ids.filter((id) => !done.has(id));
    let settled = batched.length;
    let next = 0;
    const lane = async () => {
      while (next < rest.length) {
        const id = rest[next++]!;
        if ((await settleSubmitted(db, workerId, id)) !== 'skipped') settled++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallelism, rest.length) }, lane));
    return settled;
  }

  async function runOnce(): Promise<number> {
    const stale = await reclaimStale(db, workerId, config.workerLeaseSeconds, config.workerBatchSize);
    const resumedSubmitted = stale.filter((s) => s.status === 'submitted').map((s) => s.id);
    const resumedSubmitting = stale.filter((s) => s.status === 'submitting').map((s) => s.id);
    if (stale.length) logger.warn({ workerId, resumed: stale.length }, 'resuming settlement work left by another worker');
    const claimed = await claimApproved(db, workerId, config.workerBatchSize);
    const submitted = await markSubmitted(db, workerId, [...resumedSubmitting, ...claimed]);
    if (options.dangerouslyStopAfterSubmitted) return 0;
    return settleAll([...resumedSubmitted, ...submitted.map((s) => s.id)]);
  }

  async function runLoop(): Promise<void> {
    while (running) {
      let settled = 0;
      try {
        settled = await runOnce();
      } catch (err) {
        logger.error({ err, workerId }, 'settlement pass failed');
      }
      if (!running) break;
      if (settled >= config.workerBatchSize) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config.workerPollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  return {
    workerId,
    runOnce,
    async start() {
      if (running) return;
      running = true;
      unlisten = await handle.listen(WORK_CHANNEL, () => wake?.());
      sweepTimer = setInterval(() => {
        expireStaleIntents(db, now()).catch((err) => logger.error({ err }, 'expiry sweep failed'));
      }, config.expirySweepMs);
      sweepTimer.unref();
      loop = runLoop();
    },
    async stop() {
      running = false;
      wake?.();
      if (sweepTimer) clearInterval(sweepTimer);
      await loop;
      await unlisten?.();
    },
  };
}
