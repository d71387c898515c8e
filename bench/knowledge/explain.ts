/**
 * Per-query view of the knowledge benchmark on a schema kept by `main.ts --keep-schema`: each
 * bench query's p50 through the real tool handler, then EXPLAIN (ANALYZE, BUFFERS) of the SQL
 * statements that handler ran, so a slow p50 can be traced to its plan.
 *
 *   DATABASE_URL=… npx tsx bench/knowledge/explain.ts --schema bench_kb_xxxx [--runs 9] [--plans]
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { loadConfig } from '../../shared/config.ts';
import { openDb } from '../../shared/db/client.ts';
import { createLogger } from '../../shared/log.ts';
import { createKnowledgeTools } from '../../services/knowledge/src/app.ts';
import { loadKnowledgeConfig } from '../../services/knowledge/src/config.ts';
import { createCursorCodec } from '../../services/knowledge/src/domain/cursor.ts';
import { createKnowledgeStore } from '../../services/knowledge/src/store/knowledge-store.ts';
import { COUNT_QUERIES, SEARCH_QUERIES } from './bench-queries.ts';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const schema = flag('schema');
const runs = Number(flag('runs') ?? 9);
const showPlans = argv.includes('--plans');
const base = loadConfig(process.env);
if (!base.databaseUrl || !schema) throw new Error('set DATABASE_URL and --schema (a schema kept by main.ts --keep-schema)');

const db = await openDb({ databaseUrl: base.databaseUrl, databaseSchema: schema, dataDir: base.dataDir }, { inMemory: true });
const dialect = new PgDialect();
const seen: Array<{ text: string; params: unknown[] }> = [];
const rows = db.rows.bind(db);
// Record every raw statement the handlers run, to explain them afterwards with the same parameters.
(db as { rows: typeof db.rows }).rows = async <T,>(query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  seen.push({ text, params });
  return rows<T>(query);
};
const store = createKnowledgeStore(db);
const knowledge = loadKnowledgeConfig({});
const tools = new Map(
  createKnowledgeTools({ config: base, knowledge, store, cursors: createCursorCodec(knowledge.cursorSecret), logger: createLogger('silent'), fetch, background: new Set() }).map((t) => [t.name, t]),
);
const admin = postgres(base.databaseUrl, { onnotice: () => {}, max: 1, connection: { search_path: `${schema},public` } });
const [{ created_by: userId }] = await admin<{ created_by: string }[]>`select created_by::text from kb_rooms where name = 'bench' limit 1`;
const ctx = { session: { subject: userId ?? randomUUID(), kind: 'connector', chainId: null, audience: '', scopes: [], expiresAt: 0, sessionToken: '' }, requestId: 'explain', signal: new AbortController().signal };

const cases: Array<[string, Record<string, unknown>]> = [
  ...SEARCH_QUERIES.map((query): [string, Record<string, unknown>] => ['search', { query }]),
  ...COUNT_QUERIES.map(([query, mode]): [string, Record<string, unknown>] => ['count', { query, mode }]),
];
for (const [tool, args] of cases) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    seen.length = 0;
    const t = performance.now();
    const r = await tools.get(tool)!.handler(args as never, ctx as never);
    times.push(performance.now() - t);
    if (r.isError) throw new Error(JSON.stringify(r.content));
  }
  times.sort((a, b) => a - b);
  const summary = tool === 'count' ? JSON.stringify((await tools.get(tool)!.handler(args as never, ctx as never)).structuredContent, ['occurrences', 'documents']) : '';
  console.log(`${tool} ${JSON.stringify(args)}: p50 ${times[Math.floor(runs / 2)].toFixed(1)} ms, min ${times[0].toFixed(1)} ms ${summary}`);
  if (!showPlans) continue;
  for (const s of seen.splice(0)) {
    const plan = await admin.unsafe(`explain (analyze, buffers) ${s.text}`, s.params as never[]);
    console.log(plan.map((p) => `    ${p['QUERY PLAN']}`).join('\n'));
  }
}
await admin.end();
await db.close();
