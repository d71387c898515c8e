import type { Config } from './config.ts';
import type { DbHandle } from './db/client.ts';
import type { Logger } from './log.ts';

/** What a CLI command receives: config read once, a lazily opened database, and stdout/stderr. */
export interface CliDeps {
  readonly config: Config;
  readonly logger: Logger;
  /** Opens the configured database with migrations applied (the caller closes it). */
  openDb(): Promise<DbHandle>;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/**
 * One `npx gatehouse <group> <name> …` command. Each service exports its commands from
 * `services/<service>/src/cli.ts` as `commands`; the dispatcher in `services/cli/` only routes.
 */
export interface CliCommand {
  /** e.g. `users add`, `research import` */
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  /** Returns the process exit code. Throw `CliUsageError` for bad arguments. */
  run(argv: readonly string[], deps: CliDeps): Promise<number>;
}

export class CliUsageError extends Error {
  override name = 'CliUsageError';
}
