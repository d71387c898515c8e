import type { Express } from 'express';
import type { Config } from './config.ts';
import type { DbHandle } from './db/client.ts';
import type { Logger } from './log.ts';

/** What every service factory receives: config read once, one database handle, one logger. */
export interface ServiceDeps {
  readonly config: Config;
  readonly db: DbHandle;
  readonly logger: Logger;
  /**
   * The environment the shared config was read from, for services that parse their own
   * settings in their own `config.ts` (tests hand in their own record here).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A built service: an express app to listen with, and what to stop on shutdown. */
export interface BuiltService {
  readonly app: Express;
  /** Background work (workers, refresh loops) to start once listening. */
  start?(): Promise<void> | void;
  close(): Promise<void>;
}
