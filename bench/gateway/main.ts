/**
 * Gateway benchmark (issue 7): a routed `tools/call` through the gateway vs the same call made
 * directly to the upstream — same tool, same machine, one run — uncached and cached; then
 * `search_tools` ranking p95 over 5,000 generated tools, firewall results/s, and the receipt INSERT
 * alone (receipt-insert.ts: ours vs the multi-row VALUES it replaced).
 *
 * Layout (printed with the table): the upstream, the gateway (with auth and its database) and
 * this load generator each run in their own process, as in a deployment, so the gateway's CPU
 * is not hidden behind — or charged to — the load generator's. `GATEWAY_IN_PROCESS=1` puts auth
 * and the gateway back into this process, `UPSTREAM_IN_PROCESS=1` the upstream (older layouts,
 * kept to compare with older figures).
 *
 * A bare pass-through proxy (proxy-process.ts) in the gateway's place gives the ceiling row:
 * the ratio no gateway can beat on this machine, because the process in between must at least
 * receive, forward and answer each call.
 *
 * Two measurements per call kind: throughput at CONCURRENCY (default 16) — direct and routed
 * runs alternate (ROUNDS, default 2) and the median is reported, so a burst of load from
 * elsewhere lands on both sides — and latency at concurrency 1, where "added p50/p99" is the
 * time the gateway adds to one call rather than queueing on a saturated machine.
 *
 *   npm run bench -- gateway      (PGlite; DATABASE_URL=postgres://… for Postgres)
 *   DURATION_MS=5000 CONCURRENCY=16 ROUNDS=2 LATENCY_MS=3000 [GATEWAY_IN_PROCESS=1] [UPSTREAM_IN_PROCESS=1]
 *   GATEWAY_CPU_PROF_DIR=/tmp/prof   writes a --cpu-prof profile of the gateway process
 *   BENCH_CALLS=uncached|cached       runs one call kind only (with a profile, to see one path)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildSearchIndex, rankDocuments } from '../../services/gateway/src/domain/tool-ranking.ts';
import { scanValue } from '../../services/gateway/src/domain/firewall.ts';
import { FIXTURE_CATALOG, GOLDEN_QUERIES } from '../../services/gateway/src/domain/tool-ranking.fixture.ts';
import { benchReceiptInsert } from './receipt-insert.ts';

const DURATION_MS = Number(process.env.DURATION_MS ?? 5000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 3000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const GATEWAY_IN_PROCESS = process.env.GATEWAY_IN_PROCESS === '1';
const UPSTREAM_IN_PROCESS = process.env.UPSTREAM_IN_PROCESS === '1';

/** CPU seconds (user + system) a process has used so far, from /proc; undefined where there is none. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return undefined;
  }
}

/** Starts a bench child and reads the one JSON line it prints when ready. */
async function child<T>(script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<{ ready: T; pid: number | undefined; stop(): Promise<void> }> {
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', fileURLToPath(new URL(script, import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  // If this process dies first (a crash), its children must not outlive it holding ports and pipes.
  process.once('exit', () => proc.kill('SIGTERM'));
  return {
    ready: JSON.parse(line) as T,
    pid: proc.pid,
    stop: async () => {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

async function startUpstream(): Promise<{ url: string; pid?: number | undefined; stop(): Promise<void> }> {
  if (UPSTREAM_IN_PROCESS) {
    const { startFakeUpstream } = await import('../../test/gateway/fake-upstream.ts');
    const inline = await startFakeUpstream();
    return { url: inline.url, stop: () => inline.close() };
  }
  const c = await child<{ url: string }>('./upstream-process.ts', {});
  return { url: c.ready.url, pid: c.pid, stop: c.stop };
}

async function startGateway(upstreamUrl: string): Promise<{ url: string; key: string; db: string; pid?: number | undefined; stop(): Promise<void> }> {
  if (GATEWAY_IN_PROCESS) {
    const dir = mkdtempSync(join(tmpdir(), 'gwb-'));
    writeFileSync(join(dir, 'gateway.config.json'), JSON.stringify({ upstreams: [] }));
    process.env.GATEWAY_CONFIG = join(dir, 'gateway.config.json');
    const { startGatewayBench } = await import('./gateway-stack.ts');
    const inline = await startGatewayBench(upstreamUrl);
    return { ...inline, stop: () => inline.close() };
  }
  const prof = process.env.GATEWAY_CPU_PROF_DIR;
  const c = await child<{ url: string; key: string; db: string }>('./gateway-process.ts', { BENCH_UPSTREAM_URL: upstreamUrl }, prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []);
  return { ...c.ready, pid: c.pid, stop: c.stop };
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU ms per call spent by the upstream and by the gateway process (own-process layouts only). */
  upstreamCpuMs?: number | undefined;
  gatewayCpuMs?: number | undefined;
  /** CPU ms per call spent by this load generator (the same client on both sides). */
  loadCpuMs: number;
}

function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * The load generator's client: node:http over a keep-alive agent, one socket per worker. Node's
 * fetch (undici) costs 0.5–1.3 ms of CPU per call on this machine — as much as the upstream —
 * and that CPU comes out of the same two cores the gateway runs on, so a heavy client measures
 * itself as much as the systems under test. The same client drives both sides of every row.
 */
const agents = new Map<string, Agent>();
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  let agent = agents.get(target.host);
  if (!agent) agents.set(target.host, (agent = new Agent({ keepAlive: true, maxSockets: 256 })));
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

let pids: { upstream?: number | undefined; gateway?: number | undefined } = {};

async function load(url: string, headers: Record<string, string>, body: (i: number) => unknown, concurrency: number, durationMs: number): Promise<Run> {
  const cpu0 = { upstream: cpuSeconds(pids.upstream), gateway: cpuSeconds(pids.gateway), load: process.cpuUsage() };
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const end = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const { status, text } = await post(url, headers, JSON.stringify(body(i++)));
      if (status !== 200 || text.includes('"isError":true') || text.includes('"error":{')) errors += 1;
      latencies.push(performance.now() - started);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const perCall = (before: number | undefined, after: number | undefined) => (before === undefined || after === undefined ? undefined : ((after - before) * 1000) / latencies.length);
  return {
    rps: latencies.length / seconds,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    errors,
    upstreamCpuMs: perCall(cpu0.upstream, cpuSeconds(pids.upstream)),
    gatewayCpuMs: perCall(cpu0.gateway, cpuSeconds(pids.gateway)),
    loadCpuMs: (() => {
      const used = process.cpuUsage(cpu0.load);
      return (used.user + used.system) / 1000 / latencies.length;
    })(),
  };
}

const call = (name: string, args: Record<string, unknown>) => (i: number) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: args } });

async function main() {
  const upstream = await startUpstream();
  const gateway = await startGateway(upstream.url);
  const auth = { authorization: `Bearer ${gateway.key}` };
  const proxy = await child<{ url: string }>('./proxy-process.ts', { BENCH_UPSTREAM_URL: upstream.url });
  pids = { upstream: upstream.pid, gateway: gateway.pid };
  const readNote = call('read_note', {});
  const kinds = [
    { key: 'uncached', label: 'uncached (read_note)', direct: call('read_note', {}), routed: call('invoke_tool', { tool: 'ext_read_note', arguments: {} }) },
    { key: 'cached', label: 'cached (list_yields)', direct: call('list_yields', { chain: 'base' }), routed: call('invoke_tool', { tool: 'ext_list_yields', arguments: { chain: 'base' } }) },
  ].filter((k) => !process.env.BENCH_CALLS || k.key === process.env.BENCH_CALLS);

  // Warm-up: key exchange cache, connections, JIT.
  for (const k of kinds) {
    await load(upstream.url, {}, k.direct, CONCURRENCY, 1500);
    await load(gateway.url, auth, k.routed, CONCURRENCY, 1500);
  }

  const throughput = kinds.map(() => ({ direct: [] as Run[], routed: [] as Run[] }));
  const ceiling = { direct: [] as Run[], proxied: [] as Run[] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [n, k] of kinds.entries()) {
      throughput[n]!.direct.push(await load(upstream.url, {}, k.direct, CONCURRENCY, DURATION_MS));
      throughput[n]!.routed.push(await load(gateway.url, auth, k.routed, CONCURRENCY, DURATION_MS));
    }
    // The same uncached call through a bare pass-through proxy: what any process in between costs.
    pids = { upstream: upstream.pid, gateway: proxy.pid };
    ceiling.direct.push(await load(upstream.url, {}, readNote, CONCURRENCY, DURATION_MS));
    ceiling.proxied.push(await load(proxy.ready.url, {}, readNote, CONCURRENCY, DURATION_MS));
    pids = { upstream: upstream.pid, gateway: gateway.pid };
  }
  const latency: Array<{ direct: Run; routed: Run }> = [];
  for (const k of kinds) latency.push({ direct: await load(upstream.url, {}, k.direct, 1, LATENCY_MS), routed: await load(gateway.url, auth, k.routed, 1, LATENCY_MS) });
  pids = { upstream: upstream.pid, gateway: proxy.pid };
  const ceilingLatency = { direct: await load(upstream.url, {}, readNote, 1, LATENCY_MS), proxied: await load(proxy.ready.url, {}, readNote, 1, LATENCY_MS) };

  // search_tools ranking over 5,000 generated tools.
  const generated = Array.from({ length: 5000 }, (_, i) => {
    const base = FIXTURE_CATALOG[i % FIXTURE_CATALOG.length]!;
    return { ...base, id: `${base.id}_${i}`, description: `${base.description} Variant ${i} for provider p${i % 97}.` };
  });
  const tBuild = performance.now();
  const index = buildSearchIndex(generated);
  const buildMs = performance.now() - tBuild;
  const searchTimes: number[] = [];
  for (let r = 0; r < 10; r++) for (const [q] of GOLDEN_QUERIES) {
    const t = performance.now();
    rankDocuments(index, q, (d) => d % 7 !== 0).slice(0, 10);
    searchTimes.push(performance.now() - t);
  }
  searchTimes.sort((a, b) => a - b);

  // Firewall throughput on a typical ~1 kB structured result.
  const typical = { content: [{ type: 'text', text: JSON.stringify({ pools: Array.from({ length: 15 }, (_, i) => ({ id: `pool-${i}`, chain: 'base', apy: 4 + i / 10, protocol: 'aave-v3' })) }) }] };
  const fwN = 20000;
  const tFw = performance.now();
  for (let i = 0; i < fwN; i++) scanValue(typical);
  const fwSeconds = (performance.now() - tFw) / 1000;

  const layout = `upstream ${UPSTREAM_IN_PROCESS ? 'in the load generator\'s process' : 'in its own process'}, auth + gateway ${GATEWAY_IN_PROCESS ? 'in the load generator\'s process' : 'in their own process'}`;
  const ms = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(3));
  const row = (label: string, d: Run, g: Run) =>
    `| ${label} | ${d.rps.toFixed(0)} | ${g.rps.toFixed(0)} | ${(g.rps / d.rps).toFixed(2)} | ${d.p50.toFixed(2)} / ${d.p99.toFixed(2)} | ${g.p50.toFixed(2)} / ${g.p99.toFixed(2)} | ${(g.p50 - d.p50).toFixed(2)} / ${(g.p99 - d.p99).toFixed(2)} | ${ms(d.upstreamCpuMs)} | ${ms(g.gatewayCpuMs)} / ${ms(g.upstreamCpuMs)} | ${ms(d.loadCpuMs)} / ${ms(g.loadCpuMs)} | ${d.errors + g.errors} |`;
  const header = [
    '| call | direct req/s | gateway req/s | ratio | direct p50/p99 ms | gateway p50/p99 ms | added p50/p99 ms | direct: upstream CPU ms/call | routed: gateway / upstream CPU ms/call | load generator CPU ms/call, direct / routed | errors |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  console.log(`\nGateway benchmark — ${gateway.db}; ${layout}\n`);
  console.log(`Throughput: concurrency ${CONCURRENCY}, ${DURATION_MS} ms per run, median of ${ROUNDS} alternating rounds\n`);
  console.log(header.join('\n'));
  kinds.forEach((k, n) => console.log(row(k.label, median(throughput[n]!.direct), median(throughput[n]!.routed))));
  console.log(row('ceiling: bare pass-through proxy, uncached', median(ceiling.direct), median(ceiling.proxied)));
  console.log(`\nLatency: concurrency 1, ${LATENCY_MS} ms per run\n`);
  console.log(header.join('\n'));
  kinds.forEach((k, n) => console.log(row(k.label, latency[n]!.direct, latency[n]!.routed)));
  console.log(row('ceiling: bare pass-through proxy, uncached', ceilingLatency.direct, ceilingLatency.proxied));
  console.log(`\nsearch_tools ranking over 5,000 tools: index build ${buildMs.toFixed(0)} ms; p50 ${pct(searchTimes, 50).toFixed(2)} ms, p95 ${pct(searchTimes, 95).toFixed(2)} ms (${searchTimes.length} queries)`);
  console.log(`firewall: ${(fwN / fwSeconds).toFixed(0)} results/s (${((fwSeconds / fwN) * 1000).toFixed(3)} ms per ${JSON.stringify(typical).length}-byte result)`);
  await proxy.stop();
  await gateway.stop();
  await upstream.stop();
  // After the servers stop, so nothing else competes for the cores.
  await benchReceiptInsert();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
