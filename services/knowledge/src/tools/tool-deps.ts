import type { Config } from '../../../../shared/config.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { KnowledgeConfig } from '../config.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { KnowledgeStore } from '../store/knowledge-store.ts';

/** What every knowledge tool is built with: injected once, so tests swap `fetch` and `now`. */
export interface KnowledgeToolDeps {
  readonly config: Config;
  readonly knowledge: KnowledgeConfig;
  readonly store: KnowledgeStore;
  readonly cursors: CursorCodec;
  readonly logger: Logger;
  readonly fetch: typeof fetch;
  /** Where background work (freeze jobs) is tracked, so `close()` can wait for it. */
  readonly background: Set<Promise<unknown>>;
}
