import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliUsageError, type CliCommand, type CliDeps } from '../../shared/cli.ts';
import { ConfigError, loadConfig } from '../../shared/config.ts';
import { openDb } from '../../shared/db/client.ts';
import { runMigrations } from '../../shared/db/migrate.ts';
import { createLogger } from '../../shared/log.ts';

const migrate: CliCommand = {
  name: 'migrate',
  usage: 'gatehouse migrate',
  summary: 'Apply pending migrations (idempotent; safe when several processes run it at once).',
  async run(_argv, deps) {
    const db = await deps.openDb();
    await db.close();
    deps.stdout.write('Migrations are up to date.\n');
    return 0;
  },
};

/** Each service contributes its own commands from `services/<service>/src/cli.ts`. */
const SERVICE_CLI_MODULES = ['auth', 'research', 'knowledge', 'payments', 'gateway'];

async function loadCommands(): Promise<CliCommand[]> {
  const commands: CliCommand[] = [migrate];
  for (const service of SERVICE_CLI_MODULES) {
    // `.js` when running from `npm run build`'s output, `.ts` from the sources.
    const url = new URL(`../${service}/src/cli${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
    if (!existsSync(fileURLToPath(url))) continue;
    const mod = (await import(url.href)) as { commands?: CliCommand[] };
    commands.push(...(mod.commands ?? []));
  }
  return commands;
}

function usage(commands: CliCommand[]): string {
  return ['Usage: npx gatehouse <command> [flags]', '', ...commands.map((c) => `  ${c.usage}\n      ${c.summary}`), ''].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const commands = await loadCommands();
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(usage(commands));
    return argv.length === 0 ? 1 : 0;
  }
  // Longest match first, so `research import` wins over a hypothetical `research`.
  const command = [...commands]
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)
    .find((c) => c.name.split(' ').every((word, i) => argv[i] === word));
  if (!command) {
    process.stderr.write(`Unknown command: ${argv.join(' ')}\n\n${usage(commands)}`);
    return 2;
  }
  const config = loadConfig(process.env);
  const logger = createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn');
  const deps: CliDeps = {
    config,
    logger,
    stdout: process.stdout,
    stderr: process.stderr,
    async openDb() {
      const db = await openDb(config);
      await runMigrations(db);
      return db;
    },
  };
  try {
    return await command.run(argv.slice(command.name.split(' ').length), deps);
  } catch (err) {
    if (err instanceof CliUsageError) {
      process.stderr.write(`${err.message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(err instanceof ConfigError ? `${err.message}\n` : `gatehouse: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
