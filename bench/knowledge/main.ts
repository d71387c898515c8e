/**
 * Knowledge benchmark: ingestion MB/s, then `search` and `count` p50/p99 through the real tool
 * handlers (scope resolution, SQL, paging, JSON), at each corpus size, with the ratio to the
 * targets (search p50 ≤ 30 ms, count p50 ≤ 100 ms at 10,000 documents on Postgres).
 *
 *   npm run bench -- knowledge     (or: npx tsx bench/knowledge/main.ts)
 *     [--docs 1000,10000]       Postgres sizes (only when DATABASE_URL is set; fresh schema, dropped after)
 *     [--pglite-docs 1000]      PGlite sizes (0 to skip)
 *     [--corpus DIR]            vary real .txt/.md/.html agreements instead of generated text
 *     [--queries 50] [--concurrency 4]  (files ingested in parallel on Postgres)
 *     [--keep-schema]           leave the Postgres schema in place (for EXPLAIN); drop it yourself
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { loadConfig } from '../../shared/config.ts';
import { openDb } from '../../shared/db/client.ts';
import { runMigrations } from '../../shared/db/migrate.ts';
import { createLogger } from '../../shared/log.ts';
import { createKnowledgeTools } from '../../services/knowledge/src/app.ts';
import { loadKnowledgeConfig } from '../../services/knowledge/src/config.ts';
import { createCursorCodec } from '../../services/knowledge/src/domain/cursor.ts';
import { ingestFile } from '../../services/knowledge/src/ingest/ingest-file.ts';
import { createKnowledgeStore } from '../../services/knowledge/src/store/knowledge-store.ts';
import { COUNT_QUERIES, SEARCH_QUERIES } from './bench-queries.ts';
import { generateContract, varyText } from './generate-contracts.ts';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const postgresSizes = (flag('docs') ?? '1000,10000').split(',').map(Number);
const pgliteSizes = (flag('pglite-docs') ?? '1000').split(',').map(Number).filter((n) => n > 0);
const concurrency = Number(flag('concurrency') ?? 4);
const SEARCH_TARGET_P50_MS = 30;
const COUNT_TARGET_P50_MS = 100;
const corpusDir = flag('corpus');
const queryCount = Number(flag('queries') ?? 50);
const keepSchema = argv.includes('--keep-schema');


const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function benchDb(base: ReturnType<typeof loadConfig>, sizes: number[]): Promise<string[]> {
  const schema = base.databaseUrl ? `bench_kb_${randomBytes(4).toString('hex')}` : undefined;
  const db = await openDb({ databaseUrl: base.databaseUrl, databaseSchema: schema, dataDir: base.dataDir }, { inMemory: true });
  await runMigrations(db);
  const store = createKnowledgeStore(db);
  const knowledge = loadKnowledgeConfig({});
  const logger = createLogger('silent');
  const tools = new Map(
    createKnowledgeTools({ config: base, knowledge, store, cursors: createCursorCodec(knowledge.cursorSecret), logger, fetch, background: new Set() }).map((t) => [t.name, t]),
  );
  const userId = randomUUID();
  const ctx = { session: { subject: userId, kind: 'connector', chainId: null, audience: '', scopes: [], expiresAt: 0, sessionToken: '' }, requestId: 'bench', signal: new AbortController().signal } as const;
  const room = await store.rooms.ensureRoom('bench', userId);
  const real = corpusDir ? readdirSync(corpusDir).filter((f) => /\.(txt|md|html?)$/i.test(f)).map((f) => readFileSync(join(corpusDir, f), 'utf8')) : [];

  const rows: string[] = [];
  let ingested = 0;
  for (const target of sizes) {
    let bytes = 0;
    const t0 = performance.now();
    let next = ingested;
    const lanes = db.kind === 'postgres' ? concurrency : 1;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        for (let i = next++; i < target; i = next++) {
          const text = real.length ? varyText(real[i % real.length], i) : generateContract(i);
          const buf = Buffer.from(text, 'utf8');
          bytes += buf.length;
          await ingestFile(store, { roomId: room.id, userId, name: `doc-${i}.txt`, bytes: buf });
          if (i % 250 === 0) process.stderr.write(`\r${db.kind}: ingested ${i}/${target}`);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    process.stderr.write('\n');
    ingested = target;

    const time = async (name: string, args: Record<string, unknown>) => {
      const t = performance.now();
      const r = await tools.get(name)!.handler(args as never, ctx as never);
      if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
      return performance.now() - t;
    };
    for (const q of SEARCH_QUERIES) await time('search', { query: q }); // warm caches
    const search: number[] = [];
    const count: number[] = [];
    for (let i = 0; i < queryCount; i++) search.push(await time('search', { query: SEARCH_QUERIES[i % SEARCH_QUERIES.length] }));
    for (let i = 0; i < queryCount; i++) {
      const [query, mode] = COUNT_QUERIES[i % COUNT_QUERIES.length];
      count.push(await time('count', { query, mode }));
    }
    const ratio = (ms: number, target: number) => `${(ms / target).toFixed(2)}×${ms <= target ? ' ✓' : ''}`;
    rows.push(
      `| ${db.kind} | ${target} | ${corpusDir ? 'corpus' : 'generated'} | ${(bytes / 1_048_576).toFixed(1)} | ${(bytes / 1_048_576 / seconds).toFixed(2)} | ${pct(search, 50).toFixed(1)} | ${pct(search, 99).toFixed(1)} | ${ratio(pct(search, 50), SEARCH_TARGET_P50_MS)} | ${pct(count, 50).toFixed(1)} | ${pct(count, 99).toFixed(1)} | ${ratio(pct(count, 50), COUNT_TARGET_P50_MS)} |`,
    );
    console.error(`\n${rows[rows.length - 1]}`);
  }
  await db.close();
  if (base.databaseUrl && schema && keepSchema) console.error(`kept schema ${schema}`);
  else if (base.databaseUrl && schema) {
    const admin = postgres(base.databaseUrl, { onnotice: () => {}, max: 1 });
    await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
  return rows;
}

async function main() {
  const env = loadConfig(process.env);
  const rows: string[] = [];
  if (pgliteSizes.length) rows.push(...(await benchDb(loadConfig({ ...process.env, DATABASE_URL: '' }), pgliteSizes)));
  if (env.databaseUrl) rows.push(...(await benchDb(env, postgresSizes)));
  else console.error('DATABASE_URL is not set: Postgres sizes skipped (targets are for Postgres at 10,000 documents).');
  console.log(`\nknowledge: targets search p50 ≤ ${SEARCH_TARGET_P50_MS} ms, count p50 ≤ ${COUNT_TARGET_P50_MS} ms (ratio = p50 / target)`);
  console.log('| db | documents | text | MB | ingest MB/s | search p50 ms | search p99 ms | search vs target | count p50 ms | count p99 ms | count vs target |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
}

await main();
