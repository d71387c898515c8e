import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import postgres from 'postgres';
import { loadConfig, type Config } from '../../shared/config.ts';
import { openDb, type DbHandle } from '../../shared/db/client.ts';
import { runMigrations } from '../../shared/db/migrate.ts';

/**
 * A migrated database for one test file: in-memory PGlite by default, or — when the suite runs
 * with DATABASE_URL set (CI's second pass) — a fresh schema on that server, dropped afterwards,
 * so runs never see each other's rows.
 */
export async function openTestDb(options: { pgliteDataDir?: string } = {}): Promise<DbHandle & { config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir' | 'databasePoolSize'> }> {
  const base = loadConfig(process.env);
  const schema = base.databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const dbConfig = { databaseUrl: base.databaseUrl, databaseSchema: schema, dataDir: options.pgliteDataDir ?? base.dataDir, databasePoolSize: base.databasePoolSize };
  const templatePath = process.env.GATEHOUSE_TEST_PGLITE_TEMPLATE;
  const pgliteTemplate = !base.databaseUrl && templatePath && existsSync(templatePath) ? new Blob([readFileSync(templatePath)]) : undefined;
  // A data directory (benchmarks: PGlite on disk, as `npm start` runs it) starts from initdb.
  const handle = options.pgliteDataDir ? await openDb(dbConfig) : await openDb(dbConfig, { inMemory: true, ...(pgliteTemplate ? { pgliteTemplate } : {}) });
  await runMigrations(handle);
  const close = handle.close;
  return Object.assign(handle, {
    config: dbConfig,
    async close() {
      await close();
      if (base.databaseUrl && schema) {
        const admin = postgres(base.databaseUrl, { onnotice: () => {}, max: 1 });
        await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      }
    },
  });
}
