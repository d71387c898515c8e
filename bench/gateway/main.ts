/**
 * Gateway benchmark (issue 7): a routed `tools/call` through the gateway vs the same call made
 * directly to the upstream — same tool, same machine, one run — uncached and cached; then
 * `search_tools` ranking p95 over 5,000 generated tools, and firewall results/s.
 *
 * The upstream runs in its own process (as it would in any deployment); auth, the gateway and
 * the load generator share this one. Direct and routed runs alternate (ROUNDS, default 2) and
 * the table reports the median of each, so a burst of load from elsewhere on the machine does
 * not land on one side only.
 *
 *   npm run bench -- gateway      (PGlite; DATABASE_URL=postgres://… for Postgres)
 *   DURATION_MS=5000 CONCURRENCY=16 ROUNDS=2 [UPSTREAM_IN_PROCESS=1]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '../../test/support/stack.ts';
import type { GatewayService } from '../../services/gateway/src/app.ts';
import { upsertUpstream } from '../../services/gateway/src/store/upstream-store.ts';
import { buildSearchIndex, rankDocuments } from '../../services/gateway/src/domain/tool-ranking.ts';
import { scanValue } from '../../services/gateway/src/domain/firewall.ts';
import { FIXTURE_CATALOG, GOLDEN_QUERIES } from '../../services/gateway/src/domain/tool-ranking.fixture.ts';

const DURATION_MS = Number(process.env.DURATION_MS ?? 5000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

async function startUpstreamProcess(): Promise<{ url: string; stop(): void }> {
  if (process.env.UPSTREAM_IN_PROCESS === '1') {
    // The previous layout (upstream in this process), kept for comparison with older figures.
    const { startFakeUpstream } = await import('../../test/gateway/fake-upstream.ts');
    const inline = await startFakeUpstream();
    return { url: inline.url, stop: () => void inline.close() };
  }
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./upstream-process.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`upstream process exited (${code})`)));
  });
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => child.kill('SIGTERM') };
}

function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function load(url: string, headers: Record<string, string>, body: (i: number) => unknown): Promise<Run> {
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const end = performance.now() + DURATION_MS;
  const worker = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body(i++)) });
      const text = await res.text();
      if (res.status !== 200 || text.includes('"isError":true') || text.includes('"error":{')) errors += 1;
      latencies.push(performance.now() - started);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), errors };
}

const call = (name: string, args: Record<string, unknown>) => (i: number) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: args } });

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'gwb-'));
  writeFileSync(join(dir, 'gateway.config.json'), JSON.stringify({ upstreams: [] }));
  process.env.GATEWAY_CONFIG = join(dir, 'gateway.config.json');
  const stack = await startStack({ services: ['gateway'] });
  const upstream = await startUpstreamProcess();
  await upsertUpstream(stack.db, { name: 'ext', url: upstream.url, prefix: 'ext', categories: ['defi'], tier: 'standard', costMicroUsdc: 5000, timeoutMs: 30000, maxConcurrent: 64, cacheTtls: { list_yields: 300 }, auth: { kind: 'none' }, autoApprove: [], source: 'cli' });
  await (stack.services.gateway as GatewayService).registry.refreshDue();
  await stack.createUser({ email: 'bench@example.com' });
  const key = (await stack.createKey('bench@example.com')).api_key;
  const gw = stack.config.services.gateway.resource;
  const auth = { authorization: `Bearer ${key}` };

  // Warm-up: key exchange cache, connections, JIT.
  await load(upstream.url, {}, call('read_note', {}));
  await load(gw, auth, call('invoke_tool', { tool: 'ext_read_note', arguments: {} }));

  const runs = { direct: [] as Run[], routed: [] as Run[], directCached: [] as Run[], routedCached: [] as Run[] };
  for (let r = 0; r < ROUNDS; r++) {
    runs.direct.push(await load(upstream.url, {}, call('read_note', {})));
    runs.routed.push(await load(gw, auth, call('invoke_tool', { tool: 'ext_read_note', arguments: {} })));
    runs.directCached.push(await load(upstream.url, {}, call('list_yields', { chain: 'base' })));
    runs.routedCached.push(await load(gw, auth, call('invoke_tool', { tool: 'ext_list_yields', arguments: { chain: 'base' } })));
  }
  const [direct, routed, directCached, routedCached] = [median(runs.direct), median(runs.routed), median(runs.directCached), median(runs.routedCached)];

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

  // Firewall throughput on a typical ~2 kB structured result.
  const typical = { content: [{ type: 'text', text: JSON.stringify({ pools: Array.from({ length: 15 }, (_, i) => ({ id: `pool-${i}`, chain: 'base', apy: 4 + i / 10, protocol: 'aave-v3' })) }) }] };
  const fwN = 20000;
  const tFw = performance.now();
  for (let i = 0; i < fwN; i++) scanValue(typical);
  const fwSeconds = (performance.now() - tFw) / 1000;

  const row = (label: string, d: Run, g: Run) =>
    `| ${label} | ${d.rps.toFixed(0)} | ${g.rps.toFixed(0)} | ${(g.rps / d.rps).toFixed(2)} | ${d.p50.toFixed(2)} / ${d.p99.toFixed(2)} | ${g.p50.toFixed(2)} / ${g.p99.toFixed(2)} | ${(g.p50 - d.p50).toFixed(2)} / ${(g.p99 - d.p99).toFixed(2)} | ${d.errors + g.errors} |`;
  console.log(`\nGateway benchmark — concurrency ${CONCURRENCY}, ${DURATION_MS} ms per run, median of ${ROUNDS} alternating rounds, ${stack.db.kind}, ${process.env.UPSTREAM_IN_PROCESS === '1' ? 'upstream in this process' : 'upstream in its own process'}\n`);
  console.log('| call | direct req/s | gateway req/s | ratio | direct p50/p99 ms | gateway p50/p99 ms | added p50/p99 ms | errors |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  console.log(row('uncached (read_note)', direct, routed));
  console.log(row('cached (list_yields)', directCached, routedCached));
  console.log(`\nsearch_tools ranking over 5,000 tools: index build ${buildMs.toFixed(0)} ms; p50 ${pct(searchTimes, 50).toFixed(2)} ms, p95 ${pct(searchTimes, 95).toFixed(2)} ms (${searchTimes.length} queries)`);
  console.log(`firewall: ${(fwN / fwSeconds).toFixed(0)} results/s (${((fwSeconds / fwN) * 1000).toFixed(3)} ms per ${JSON.stringify(typical).length}-byte result)`);
  upstream.stop();
  await stack.close();
  process.exit(0);
}

void main();
