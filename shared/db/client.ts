import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import postgres from 'postgres';
import type { Config } from '../config.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = PgDatabase<any>;

export interface DbHandle {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** The schema tables live in (`public` unless DATABASE_SCHEMA says otherwise). */
  readonly schema: string;
  /** Rows of a raw statement: postgres.js returns an array, PGlite `{ rows }`; this hides it once. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  /** LISTEN on a channel; resolves to an unlisten function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs `fn` while holding a cluster-wide advisory lock (an in-process queue on PGlite). */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /** PGlite only: the data directory as a tarball (reusable as `pgliteTemplate`). */
  dumpDataDir?(): Promise<Blob>;
  /**
   * Postgres only: a connection of its own, outside the pool, with the pool's settings, for
   * session-level state such as advisory locks. If its server session ends, the next query runs
   * on a new one (whose locks are not the old one's); `close` ends it and every lock it holds.
   */
  openSession?(): Promise<DbSession>;
  close(): Promise<void>;
}

export interface DbSession {
  /** Runs one statement with positional parameters on this connection. */
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** PGlite in memory (tests). Ignored when a DATABASE_URL is configured. */
  inMemory?: boolean;
  /** A PGlite data-dir dump to start from instead of running initdb (tests: an already-migrated template). */
  pgliteTemplate?: Blob;
  /**
   * Postgres only: more connection startup parameters for this pool, e.g. `synchronous_commit:
   * 'off'` for a pool whose commits need not wait for the WAL flush (the gateway's receipts).
   */
  connection?: Readonly<Record<string, string>>;
}

/**
 * The one client factory: embedded PGlite in DATA_DIR when DATABASE_URL is unset, postgres.js
 * otherwise. With DATABASE_SCHEMA set, every connection's search_path starts at that schema,
 * which is how test runs stay out of each other's rows on one server.
 */
export async function openDb(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>,
  options: OpenDbOptions = {},
): Promise<DbHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.databaseSchema, config.databasePoolSize ?? 10, options.connection ?? {});
  return openPglite(options.inMemory ? undefined : config.dataDir, options.pgliteTemplate);
}

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<DbHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir ? `file://${dataDir}/pglite` : 'memory://', {
    extensions: { pg_trgm },
    ...(template ? { loadDataDir: template } : {}),
  });
  const db = drizzlePglite(client) as unknown as Db;
  let lockQueue: Promise<unknown> = Promise.resolve();
  return {
    db,
    kind: 'pglite',
    schema: 'public',
    async rows<T>(query: SQL) {
      const result = (await db.execute(query)) as unknown as { rows: T[] };
      return result.rows;
    },
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, onNotify);
      return async () => unlisten();
    },
    // One process owns a PGlite folder, so an in-process queue is the whole lock.
    withAdvisoryLock(_key, fn) {
      const run = lockQueue.then(fn, fn);
      lockQueue = run.catch(() => undefined);
      return run;
    },
    dumpDataDir: () => client.dumpDataDir('none'),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, schema: string | undefined, poolSize: number, connection: Readonly<Record<string, string>>): Promise<DbHandle> {
  const options = {
    onnotice: () => {},
    max: poolSize,
    // jit off: our statements run in milliseconds, but on tables without fresh statistics the
    // planner's estimates grow with the data until they cross jit_above_cost, and LLVM then
    // spends 40-160 ms compiling each one (measured on the knowledge counts at 10,000 documents).
    connection: { jit: 'off', ...connection, ...(schema ? { search_path: `${schema},public` } : {}) },
  };
  if (schema) {
    const admin = postgres(url, { onnotice: () => {}, max: 1 });
    try {
      await admin.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await admin.end();
    }
  }
  const client = postgres(url, options);
  const db = drizzlePostgres(client) as unknown as Db;
  // Not `client.reserve()`: postgres.js 3.4 throws an uncaught TypeError from its socket code
  // when a reserved connection is used after the server ended it, and the query never settles.
  const openSession = async (): Promise<DbSession> => {
    const session = postgres(url, { ...options, max: 1 });
    return {
      query: async <T,>(text: string, params: readonly unknown[] = []) => (await session.unsafe(text, [...params] as never[])) as unknown as T[],
      close: () => session.end({ timeout: 1 }),
    };
  };
  return {
    db,
    kind: 'postgres',
    schema: schema ?? 'public',
    async rows<T>(query: SQL) {
      return (await db.execute(query)) as unknown as T[];
    },
    async listen(channel, onNotify) {
      const sub = await client.listen(channel, onNotify);
      return async () => sub.unlisten();
    },
    async withAdvisoryLock(key, fn) {
      // A connection of its own holds the session-level lock for the whole of `fn`, which may
      // itself use pool connections; closing it ends the session and so releases the lock.
      const session = await openSession();
      try {
        await session.query('select pg_advisory_lock($1::int8)', [key]);
        return await fn();
      } finally {
        await session.close();
      }
    },
    openSession,
    close: () => client.end({ timeout: 5 }),
  };
}

export { sql };
