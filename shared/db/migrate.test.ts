import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDb, sql, type DbHandle } from './client.ts';
import { MIGRATION_FOLDERS, runMigrations } from './migrate.ts';

const base = loadConfig(process.env);

/** Two independent handles on one fresh database: two schemas' worth of isolation on Postgres. */
async function twoHandles(): Promise<[DbHandle, DbHandle, () => Promise<void>]> {
  if (!base.databaseUrl) {
    const one = await openDb(base, { inMemory: true });
    // PGlite is single-process: the second "process" is a second caller on the same handle.
    return [one, one, () => one.close()];
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const cfg = { ...base, databaseSchema: schema };
  const a = await openDb(cfg);
  const b = await openDb(cfg);
  return [
    a,
    b,
    async () => {
      await a.close();
      await b.close();
      const admin = postgres(base.databaseUrl!, { onnotice: () => {}, max: 1 });
      await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  ];
}

describe('runMigrations', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('is safe when two processes start at once, and a second run changes nothing', async () => {
    const [a, b, cleanup] = await twoHandles();
    cleanups.push(cleanup);
    const [first, second] = await Promise.all([runMigrations(a), runMigrations(b)]);
    expect(first).toEqual(second);
    expect(first).toContain('auth');
    const countMigrations = async () => {
      let total = 0;
      for (const name of first) {
        const [row] = await a.rows<{ n: number }>(sql.raw(`select count(*)::int as n from "${a.schema}"."__migrations_${name}"`));
        total += row!.n;
      }
      return total;
    };
    const before = await countMigrations();
    expect(before).toBeGreaterThan(0);
    await runMigrations(a);
    expect(await countMigrations()).toBe(before);
    const [users] = await a.rows<{ n: number }>(sql`select count(*)::int as n from users`);
    expect(users!.n).toBe(0);
  });

  it('knows every service folder in a stable order', () => {
    expect(MIGRATION_FOLDERS[0]).toBe('auth');
  });
});
