import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

interface PostgresJsClient {
  unsafe(text: string, params: unknown[], options: { prepare: boolean }): Promise<unknown[]>;
}
interface PgliteClient {
  query(text: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Runs one fixed SQL text with positional parameters (`$1::uuid` — every parameter cast, so no
 * driver has to guess a type) on the driver under drizzle (`db.$client`), for statements on a hot
 * path (filing a proposal, recording a receipt). On postgres.js it is a named prepared statement
 * per pooled connection: Postgres parses and plans it once per connection, and no query builder
 * runs per call. On PGlite it is the client's own extended query, about half the CPU of drizzle's
 * `execute` (drizzle rebuilds the query and PGlite re-merges drizzle's type parsers every call).
 * A driver this does not recognise gets the same text through drizzle.
 */
export async function runPrepared<T>(db: Db, text: string, params: readonly unknown[]): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client as Partial<PostgresJsClient & PgliteClient> | undefined;
  if (typeof client?.unsafe === 'function') return (await client.unsafe(text, [...params], { prepare: true })) as T[];
  if (typeof client?.query === 'function') return (await client.query(text, [...params])).rows as T[];
  const result = (await db.execute(positional(text, params))) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** `$n` placeholders as drizzle parameters (the text is ours and has no `$` in literals). */
function positional(text: string, params: readonly unknown[]): SQL {
  const pieces = text.split(/\$(\d+)/);
  const chunks: SQL[] = [sql.raw(pieces[0]!)];
  for (let i = 1; i < pieces.length; i += 2) chunks.push(sql`${params[Number(pieces[i]) - 1]}`, sql.raw(pieces[i + 1]!));
  return sql.join(chunks);
}
