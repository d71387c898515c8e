import { z } from 'zod';

/**
 * The payments server's own settings, parsed once from an env record at boot (like
 * shared/config.ts); nothing else in this service reads `process.env`.
 */
const positiveInt = z.coerce.number().int().positive();
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const PaymentsEnvSchema = z.object({
  /** Run the settlement worker in this process (several processes may run it at once). */
  PAYMENTS_WORKER_ENABLED: bool.default(true),
  PAYMENTS_WORKER_BATCH_SIZE: positiveInt.max(500).default(64),
  /** Idle poll interval; NOTIFY on approval wakes the worker sooner. */
  PAYMENTS_WORKER_POLL_MS: positiveInt.default(500),
  /** Work claimed longer ago than this (a crashed worker) is resumed by another worker. */
  PAYMENTS_WORKER_LEASE_SECONDS: positiveInt.default(30),
  PAYMENTS_EXPIRY_SWEEP_MS: positiveInt.default(30_000),
  PAYMENTS_WAIT_DEFAULT_MS: positiveInt.default(30_000),
  /** MCP clients abort a tool idle for ~5 minutes; stay well under. */
  PAYMENTS_WAIT_MAX_MS: positiveInt.max(240_000).default(120_000),
});

export interface PaymentsConfig {
  readonly workerEnabled: boolean;
  readonly workerBatchSize: number;
  readonly workerPollMs: number;
  readonly workerLeaseSeconds: number;
  readonly expirySweepMs: number;
  readonly waitDefaultMs: number;
  readonly waitMaxMs: number;
}

export class PaymentsConfigError extends Error {
  override name = 'PaymentsConfigError';
}

export function loadPaymentsConfig(env: Record<string, string | undefined> = process.env): PaymentsConfig {
  const parsed = PaymentsEnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')));
  if (!parsed.success) {
    throw new PaymentsConfigError(`Invalid payments configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    workerEnabled: e.PAYMENTS_WORKER_ENABLED,
    workerBatchSize: e.PAYMENTS_WORKER_BATCH_SIZE,
    workerPollMs: e.PAYMENTS_WORKER_POLL_MS,
    workerLeaseSeconds: e.PAYMENTS_WORKER_LEASE_SECONDS,
    expirySweepMs: e.PAYMENTS_EXPIRY_SWEEP_MS,
    waitDefaultMs: Math.min(e.PAYMENTS_WAIT_DEFAULT_MS, e.PAYMENTS_WAIT_MAX_MS),
    waitMaxMs: e.PAYMENTS_WAIT_MAX_MS,
  });
}
