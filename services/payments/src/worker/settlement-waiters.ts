import type { DbHandle } from '../../../../shared/db/client.ts';

/**
 * `wait_for_settlement` blocks on Postgres NOTIFY (the transition trigger sends the message id
 * on `pay_settlement` when an intent completes or fails) instead of polling in a tight loop.
 * One LISTEN per process fans out to every waiter.
 */
export interface SettlementWaiters {
  /** Resolves true when the message id was announced, false at the timeout or abort. */
  wait(messageId: string, timeoutMs: number, signal?: AbortSignal): { settled: Promise<boolean>; cancel(): void };
  start(): Promise<void>;
  close(): Promise<void>;
}

export const SETTLEMENT_CHANNEL = 'pay_settlement';

export function createSettlementWaiters(handle: DbHandle): SettlementWaiters {
  const waiting = new Map<string, Set<(settled: boolean) => void>>();
  let unlisten: (() => Promise<void>) | undefined;
  let starting: Promise<void> | undefined;

  const start = () => {
    starting ??= handle
      .listen(SETTLEMENT_CHANNEL, (messageId) => {
        for (const resolve of waiting.get(messageId) ?? []) resolve(true);
      })
      .then((stop) => {
        unlisten = stop;
      });
    return starting;
  };

  return {
    start,
    wait(messageId, timeoutMs, signal) {
      let cancel = () => {};
      const settled = new Promise<boolean>((resolve) => {
        const set = waiting.get(messageId) ?? new Set();
        waiting.set(messageId, set);
        const finish = (value: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          set.delete(finish);
          if (set.size === 0) waiting.delete(messageId);
          resolve(value);
        };
        const onAbort = () => finish(false);
        const timer = setTimeout(() => finish(false), timeoutMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        cancel = () => finish(false);
        set.add(finish);
      });
      return { settled, cancel };
    },
    async close() {
      for (const set of waiting.values()) for (const resolve of [...set]) resolve(false);
      await starting?.catch(() => {});
      await unlisten?.();
    },
  };
}
