import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../shared/config.ts';
import { openDb } from '../../shared/db/client.ts';
import { runMigrations } from '../../shared/db/migrate.ts';

/**
 * On PGlite, every test file needs a migrated database, and initdb in WASM is the slow part
 * (~3–4 s idle, far more on a loaded machine). Build one migrated instance per run, dump its
 * data directory, and let each file start from that dump instead (test/support/test-db.ts).
 * On PostgreSQL nothing is needed: each file creates a fresh schema.
 */
export default async function setup(): Promise<(() => void) | void> {
  const config = loadConfig(process.env);
  if (config.databaseUrl) return;
  const db = await openDb(config, { inMemory: true });
  await runMigrations(db);
  const dump = await db.dumpDataDir!();
  await db.close();
  const path = join(tmpdir(), `gatehouse-pglite-template-${process.pid}.tar`);
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  process.env.GATEHOUSE_TEST_PGLITE_TEMPLATE = path;
  return () => rmSync(path, { force: true });
}
