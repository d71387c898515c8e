/**
 * bench/payments (issue 5 "Benchmark"): `propose_send` through the real HTTP `/mcp` path with a
 * connector key (guard → key exchange cache → tool → Postgres), the duplicate-proposal path
 * (same identity: the partial unique index answers `created: false`), and the settlement
 * worker draining approved intents. Targets on this 2-core machine: ≥ 1,000 proposals/s and
 * ≥ 300 settled intents/s. Baselines from the same run: `tools/list` over the same guarded
 * `/mcp` (no database) and a bare single-row INSERT loop on the same database.
 *
 *   npm run bench -- payments                                                  (in-memory PGlite)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- payments   (Postgres)
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=32 BENCH_SENDERS=16 BENCH_WORKERS=2
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const workers = Number(process.env.BENCH_WORKERS ?? 2);
const TARGET_PROPOSE = 1000;
const TARGET_SETTLE = 300;

const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./servers.ts', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
// A failed run must not leave the servers running into the next measurement.
process.on('exit', () => child.kill());
const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
async function nextLine<T>(): Promise<T> {
  const { value, done } = await lines.next();
  if (done) throw new Error('bench/payments servers process exited');
  return JSON.parse(value as string) as T;
}
async function command<T>(cmd: Record<string, unknown>): Promise<T> {
  child.stdin!.write(`${JSON.stringify(cmd)}\n`);
  return nextLine<T>();
}
const ready = await nextLine<{ url: string; keys: string[]; db: string; batchSize: number }>();
const onPostgres = ready.db === 'postgres';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const call = (id: number, name: string, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

let serial = 0;
/** Every request a distinct proposal (its own request_id), spread over the senders' keys. */
function uniqueProposal(): autocannon.Request {
  return {
    method: 'POST',
    setupRequest: (req) => {
      const n = serial++;
      return {
        ...req,
        headers: { ...HEADERS, authorization: `Bearer ${ready.keys[n % ready.keys.length]}` },
        body: call(n, 'propose_send', { asset: 'USDC', amount: '0.01', to: 'recipient@example.com', request_id: `bench-${n}`, title: 'bench' }),
      };
    },
  };
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** CPU ms per answered request: the servers' process, Postgres, this load generator. */
  cpu: { server: number; postgres: number | null; loadgen: number; busyShare: number | null };
}

/**
 * CPU ms of every `postgres` process on this host (Linux /proc; null elsewhere). Run under the
 * exclusive bench lock, that is this run's backends plus Postgres's own background work.
 */
function postgresCpuMs(): number | null {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    }
    return ticks * 10; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

const cpuNow = async () => ({ server: await command<number>({ cmd: 'cpu' }), postgres: postgresCpuMs(), loadgen: (({ user, system }) => (user + system) / 1000)(process.cpuUsage()) });

async function measure(name: string, requests: autocannon.Request[], durationSeconds: number): Promise<Measured> {
  const before = await cpuNow();
  const started = performance.now();
  const result = await autocannon({ url: ready.url, method: 'POST', headers: HEADERS, requests, connections, duration: durationSeconds });
  const wallMs = performance.now() - started;
  const after = await cpuNow();
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const n = Math.max(1, result.requests.total);
  const pg = after.postgres !== null && before.postgres !== null ? after.postgres - before.postgres : null;
  const used = after.server - before.server + (after.loadgen - before.loadgen) + (pg ?? 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    cpu: {
      server: (after.server - before.server) / n,
      postgres: pg === null ? null : pg / n,
      loadgen: (after.loadgen - before.loadgen) / n,
      busyShare: pg === null ? null : used / (wallMs * availableParallelism()),
    },
  };
}

// Is a proposal actually filed, not an error result? One probe before the clock starts.
{
  const probe = await fetch(ready.url, { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${ready.keys[0]}` }, body: call(0, 'propose_send', { asset: 'USDC', amount: '0.01', to: 'recipient@example.com', request_id: 'probe' }) });
  const body = (await probe.json()) as { result?: { isError?: boolean; structuredContent?: { created?: boolean } } };
  if (body.result?.isError || body.result?.structuredContent?.created !== true) throw new Error(`probe proposal failed: ${JSON.stringify(body)}`);
}

// Baseline: the same guarded /mcp path without a database round trip.
const listBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const toolsList = (): autocannon.Request[] => [{ method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${ready.keys[0]}` }, body: listBody }];
await measure('warm-up', toolsList(), 2);
const list = await measure('tools/list', toolsList(), seconds);

// Unique proposals.
await measure('warm-up', [uniqueProposal()], 2);
const serialBefore = serial;
const propose = await measure('propose_send', [uniqueProposal()], seconds);
const sent = serial - serialBefore;
const filed = await command<number>({ cmd: 'countRange', from: serialBefore, to: serial });
// Every answered proposal filed its own intent (a few more may have been in flight at the end).
if (filed < propose.requests || filed > sent) throw new Error(`propose_send: ${propose.requests} answered, ${sent} sent, but ${filed} intents filed`);

// Duplicates: one identity, already open, asked again and again by its own key.
const dupBody = call(1, 'propose_send', { asset: 'USDC', amount: '0.01', to: 'recipient@example.com', request_id: 'the-duplicate' });
const dup = (): autocannon.Request[] => [{ method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${ready.keys[0]}` }, body: dupBody }];
await measure('warm-up', dup(), 2);
const duplicate = await measure('duplicate propose_send', dup(), seconds);
const dupFiled = await command<number>({ cmd: 'countRequest', requestId: 'the-duplicate' });
if (dupFiled !== 1) throw new Error(`${duplicate.requests} duplicate proposals filed ${dupFiled} intents, not 1`);

// Settlement: every open proposal approved, then drained by the worker(s).
const settled = await command<{ approved: number; settled: number; seconds: number; statuses: Record<string, number> }>({ cmd: 'settle', workers });
if (settled.settled !== settled.approved || (settled.statuses.failed ?? 0) > 0) throw new Error(`settlement: ${JSON.stringify(settled)}`);
const settleRate = settled.settled / settled.seconds;
const baseline = await command<{ rows: number; seconds: number }>({ cmd: 'baseline', rows: 3000, lanes: onPostgres ? 6 : 1 });
const baselineRate = baseline.rows / baseline.seconds;
await command({ cmd: 'exit' });

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
const dbLabel = onPostgres ? 'Postgres (DATABASE_URL, throw-away schema)' : 'in-memory PGlite — DATABASE_URL not set; these are NOT the Postgres figures';
console.log(`\nbench/payments — ${dbLabel}; ${connections} connections, ${seconds} s per run, ${ready.keys.length} senders, ${workers} settlement worker(s), batch ${ready.batchSize}\n`);
console.log('| measurement | rate | p50 ms | p99 ms | target | vs target | baseline | vs baseline |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
console.log(`| tools/list, guarded /mcp, no DB | ${Math.round(list.rps)}/s | ${list.p50} | ${list.p99} | — | — | — | — |`);
console.log(`| propose_send (new intent each) | ${Math.round(propose.rps)}/s | ${propose.p50} | ${propose.p99} | ${TARGET_PROPOSE}/s | ${pct(propose.rps / TARGET_PROPOSE)} | tools/list ${Math.round(list.rps)}/s | ${pct(propose.rps / list.rps)} |`);
console.log(`| propose_send duplicate (created: false) | ${Math.round(duplicate.rps)}/s | ${duplicate.p50} | ${duplicate.p99} | ${TARGET_PROPOSE}/s | ${pct(duplicate.rps / TARGET_PROPOSE)} | tools/list ${Math.round(list.rps)}/s | ${pct(duplicate.rps / list.rps)} |`);
console.log(`| settlement (approved → completed) | ${Math.round(settleRate)} intents/s | — | — | ${TARGET_SETTLE}/s | ${pct(settleRate / TARGET_SETTLE)} | bare INSERT ${Math.round(baselineRate)} rows/s | ${pct(settleRate / baselineRate)} |`);
const ms = (x: number | null) => (x === null ? '—' : x.toFixed(2));
console.log(`\nCPU per answered request, ms (server process = auth + payments host; Postgres = every postgres process on this host; ${availableParallelism()} cores):\n`);
console.log('| measurement | server | Postgres | load generator | all three, share of the cores |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [label, m] of [['tools/list', list], ['propose_send (new intent each)', propose], ['propose_send duplicate', duplicate]] as const) {
  console.log(`| ${label} | ${ms(m.cpu.server)} | ${ms(m.cpu.postgres)} | ${ms(m.cpu.loadgen)} | ${m.cpu.busyShare === null ? '—' : pct(m.cpu.busyShare)} |`);
}
console.log(`\n${filed} intents filed by ${propose.requests} answered proposals; ${settled.settled} of ${settled.approved} approved intents settled in ${settled.seconds.toFixed(2)} s; ${duplicate.requests} duplicates filed nothing new.`);
