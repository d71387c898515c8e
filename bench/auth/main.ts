/**
 * bench/auth: an authenticated `tools/list` with a cached connector key, against the same server
 * with the guard off, the SDK's per-request stateless recipe, and the node:http ceiling.
 * Target: the guard keeps ≥ 90 % of unguarded throughput.
 *
 *   npm run bench -- auth            (BENCH_SECONDS=10 BENCH_CONNECTIONS=32 by default)
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./servers.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
const ready = await new Promise<{ key: string; targets: Record<string, string> }>((resolve) => {
  createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
});

async function measure(url: string, bearer: string | undefined) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  await autocannon({ url, method: 'POST', headers, body, connections, duration: 2 }); // warm-up (JIT, key cache)
  const result = await autocannon({ url, method: 'POST', headers, body, connections, duration: seconds });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

// Rounds, interleaved, best of each: a background spike then hurts every row alike instead of
// whichever happened to run during it.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const best = new Map<string, Awaited<ReturnType<typeof measure>>>();
for (let round = 0; round < rounds; round++) {
  for (const [name, url] of Object.entries(ready.targets)) {
    const r = await measure(url, name === 'guarded' ? ready.key : undefined);
    if (!best.has(name) || r.rps > best.get(name)!.rps) best.set(name, r);
  }
}
const rows = [...best.entries()];
child.kill();

const unguarded = rows.find(([n]) => n === 'unguarded')![1].rps;
const ceiling = rows.find(([n]) => n === 'ceiling')![1].rps;
const label: Record<string, string> = {
  ceiling: 'node:http by hand (ceiling)',
  naiveSdk: 'SDK per-request recipe',
  unguarded: 'ours, guard off',
  guarded: 'ours, guarded (cached key)',
};
console.log(`\nbench/auth — tools/list, ${connections} connections, best of ${rounds} interleaved rounds of ${seconds} s, loopback\n`);
console.log('| server | req/s | p50 ms | p99 ms | vs guard off | vs ceiling |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const [name, r] of rows) {
  console.log(`| ${label[name]} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${((r.rps / unguarded) * 100).toFixed(0)} % | ${((r.rps / ceiling) * 100).toFixed(0)} % |`);
}
const guarded = rows.find(([n]) => n === 'guarded')![1].rps;
console.log(`\nguard keeps ${((guarded / unguarded) * 100).toFixed(1)} % of unguarded throughput (target ≥ 90 %)`);
