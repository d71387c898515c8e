import type { Logger } from '../../../../shared/log.ts';
import type { KnowledgeStore } from '../store/knowledge-store.ts';

/**
 * An upload is claimed as `indexing` and indexed afterwards, often in the background. If the
 * process dies in between, nothing would ever finish the row and the Knowledge page would reload
 * forever. The sweeper fails such rows once their claim is older than the timeout, with a reason
 * the page and the `files` tool show; a re-upload reclaims the row and indexes it again.
 *
 * The timeout is generous (indexing a maximum-size upload takes a few minutes), and a slow
 * indexer that is swept is not lost: its own attempt still completes the row to `ready` unless
 * a newer upload has claimed it (see `saveIndex`).
 */
export function stalledIndexingMessage(timeoutSeconds: number): string {
  const after = timeoutSeconds % 60 === 0 ? `${timeoutSeconds / 60} min` : `${timeoutSeconds} s`;
  return `indexing stopped: no result ${after} after upload (the indexing process probably exited); upload the file again to retry`;
}

/** One sweep: fails every row stuck in `indexing` longer than `timeoutSeconds`; returns them. */
export async function sweepStalledIndexing(store: KnowledgeStore, timeoutSeconds: number): Promise<Array<{ id: string; name: string }>> {
  return store.documents.failStalledIndexing(timeoutSeconds, stalledIndexingMessage(timeoutSeconds));
}

export interface IndexingSweeperOptions {
  readonly store: KnowledgeStore;
  readonly logger: Logger;
  readonly timeoutSeconds: number;
  readonly intervalMs: number;
}

/**
 * Sweeps at start (a restarted process cleans up after the one that died) and then every
 * `intervalMs`. Several processes may sweep the same database: the sweep is one conditional
 * UPDATE, so they never disagree.
 */
export function startIndexingSweeper({ store, logger, timeoutSeconds, intervalMs }: IndexingSweeperOptions): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = sweepStalledIndexing(store, timeoutSeconds)
      .then((swept) => {
        if (swept.length) logger.warn({ documents: swept.map((d) => d.id), timeoutSeconds }, 'stalled indexing marked failed');
      })
      .catch((err) => logger.error({ err }, 'indexing sweep failed'));
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
