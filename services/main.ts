import type { Server } from 'node:http';
import { ConfigError, loadConfig, SERVICE_NAMES } from '../shared/config.ts';
import { openDb } from '../shared/db/client.ts';
import { runMigrations } from '../shared/db/migrate.ts';
import { createLogger } from '../shared/log.ts';
import type { BuiltService } from '../shared/service.ts';
import { DEMO_USER, seedDemoUser } from './auth/src/demo-user.ts';
import { resolveServiceNames, SERVICE_FACTORIES, SERVICE_MODULES } from './service-registry.ts';

/**
 * `npm start` runs every service in one process on the embedded database; `npm start -- research`
 * (or several names) runs just those. Prints every URL and how to sign in.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const names = resolveServiceNames(process.argv.slice(2), SERVICE_NAMES);
  // Loading the services' code overlaps with opening and migrating the database.
  const [db] = await Promise.all([
    openDb(config).then(async (handle) => {
      await runMigrations(handle);
      return handle;
    }),
    ...names.map((name) => SERVICE_MODULES[name]()),
  ]);
  const deps = { config, db, logger, env: process.env };

  const built: Array<{ name: string; service: BuiltService; server: Server }> = [];
  for (const name of names) {
    const service = await SERVICE_FACTORIES[name](deps);
    const endpoint = config.services[name];
    const server = await new Promise<Server>((resolve, reject) => {
      const s = service.app.listen(endpoint.port, config.host, () => resolve(s));
      s.once('error', reject);
    });
    built.push({ name, service, server });
  }
  // Background work (refresh loops, the settlement worker) starts once everything listens.
  await Promise.all(built.map(({ service }) => service.start?.()));

  const seeded = names.includes('auth') && config.seedDemoUser ? await seedDemoUser(db.db, config) : false;

  const lines = [
    '',
    `Gatehouse is running (${db.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}/` : 'PostgreSQL'}):`,
    ...names.map((n) => `  ${n.padEnd(14)} ${n === 'auth' ? `${config.services.auth.publicUrl}  (web app: sign in at ${config.services.auth.publicUrl}/login)` : config.services[n].resource}`),
    '',
    seeded
      ? `Sign in with the demo account ${DEMO_USER.email} / ${DEMO_USER.password} (embedded database only; create your own with: npx gatehouse users add --email you@example.com --password '…')`
      : `Create an account with: npx gatehouse users add --email you@example.com --password '…'  [--kyc]`,
    `Then mint a connector key on the API keys page, or: npx gatehouse keys create --email you@example.com --kind connector`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const { server, service } of built.reverse()) {
      server.closeAllConnections?.();
      await new Promise((r) => server.close(r));
      await service.close();
    }
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`gatehouse failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
