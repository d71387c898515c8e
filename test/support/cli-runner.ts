import { PassThrough } from 'node:stream';
import type { CliCommand, CliDeps } from '../../shared/cli.ts';
import { loadConfig } from '../../shared/config.ts';
import type { DbHandle } from '../../shared/db/client.ts';
import { createLogger } from '../../shared/log.ts';
import { commands as authCommands } from '../../services/auth/src/cli.ts';

/**
 * Runs one `npx gatehouse …` command in-process against a test database, as the dispatcher would
 * (auth's commands are always there, so a test can `users add` first). Usage errors are thrown,
 * as the dispatcher expects; the exit code and both streams are returned otherwise.
 */
export async function runCli(db: DbHandle, commands: readonly CliCommand[], name: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const command = [...commands, ...authCommands].find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const deps: CliDeps = {
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    logger: createLogger('silent'),
    // The CLI closes what it opens; hand it a wrapper so the shared test DB survives.
    openDb: async () => ({ ...db, close: async () => undefined }),
    stdout,
    stderr,
  };
  const code = await command.run(argv, deps);
  return { code, out, err };
}
