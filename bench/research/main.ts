/**
 * bench/research: `list_yields` p50/p99 with a warm cache over generated DefiLlama universes of
 * 2,000 / 20,000 / 100,000 pools, and process RSS, against the issue-4 targets (p50 ≤ 15 ms and
 * RSS ≤ 150 MB at 20,000 pools). Each size × round runs in its own process
 * (bench/research/list-yields.ts); timings are the best of BENCH_ROUNDS rounds (the dev machine
 * is shared and loaded), RSS the worst.
 *
 *   npm run bench -- research
 *   BENCH_ROUNDS=5 npm run bench -- research
 *   BENCH_RESEARCH_PREVIOUS=/path/to/older/checkout npm run bench -- research   (adds "vs previous" ratios)
 *
 * Every size runs twice: through tsx, as `npm start` runs in development, and from the compiled
 * build (`npm run build`), as the production image runs. tsx's loader thread is ~30 MB of RSS
 * that production does not carry; the RSS target is judged on the compiled process.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ITERATIONS, WARMUP, type Measurement } from './list-yields.ts';

const SIZES = [2_000, 20_000, 100_000];
const TARGET_P50_MS = 15;
const TARGET_RSS_MB = 150;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const previousRoot = process.env.BENCH_RESEARCH_PREVIOUS;
const child = fileURLToPath(new URL('./list-yields.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run build` into a scratch folder, plus this harness transpiled beside it. */
function buildCompiled(): { out: string; harness: string } {
  const out = join(repoRoot, 'node_modules/.cache/gatehouse-bench-research');
  const built = spawnSync(process.execPath, [join(repoRoot, 'services/cli/build.js'), out], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stderr}${built.stdout}`);
  const harness = join(out, 'bench/research/list-yields.mjs');
  mkdirSync(dirname(harness), { recursive: true });
  const js = ts.transpileModule(readFileSync(child, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  writeFileSync(harness, js);
  return { out, harness };
}

const compiled = buildCompiled();

function run(n: number, root?: string, mode: 'tsx' | 'compiled' = 'tsx'): Measurement {
  const argv = mode === 'compiled' ? ['--expose-gc', compiled.harness, String(n), compiled.out] : ['--import', 'tsx', '--expose-gc', child, String(n), ...(root ? [root] : [])];
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`list-yields ${n} ${mode}${root ? ` (${root})` : ''} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measurement;
}

/** Best timings, worst RSS, over the rounds (rounds interleaved so a load spike hits every row alike). */
function best(all: Measurement[]): Measurement {
  return {
    ...all[0]!,
    coldMs: Math.min(...all.map((m) => m.coldMs)),
    p50: Math.min(...all.map((m) => m.p50)),
    p99: Math.min(...all.map((m) => m.p99)),
    rssMb: Math.max(...all.map((m) => m.rssMb)),
    baseRssMb: Math.max(...all.map((m) => m.baseRssMb)),
    heapUsedMb: Math.max(...all.map((m) => m.heapUsedMb)),
  };
}

const ours = new Map<number, Measurement[]>();
const built = new Map<number, Measurement[]>();
const prev = new Map<number, Measurement[]>();
for (let round = 0; round < rounds; round++) {
  for (const n of SIZES) {
    ours.set(n, [...(ours.get(n) ?? []), run(n)]);
    built.set(n, [...(built.get(n) ?? []), run(n, undefined, 'compiled')]);
    if (previousRoot) prev.set(n, [...(prev.get(n) ?? []), run(n, previousRoot)]);
  }
}

const f = (v: number, d = 1) => v.toFixed(d);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
console.log(`\nbench/research — list_yields, warm cache, ${ITERATIONS} calls (after ${WARMUP} warm-up) over 4 argument shapes per process; best of ${rounds} rounds for timings, worst for RSS; Node ${process.version}, load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}\n`);
console.log('| pools | runs as | in scope | cold ms | p50 ms | p99 ms | p50 vs 15 ms | baseline RSS MB | RSS MB | data MB (RSS − baseline) | RSS vs 150 MB |' + (previousRoot ? ' previous p50 ms | p50 vs previous | previous RSS MB | RSS vs previous | data vs previous |' : ''));
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|' + (previousRoot ? '---:|---:|---:|---:|---:|' : ''));
for (const n of SIZES) {
  for (const [label, runs] of [['tsx (npm start)', ours], ['compiled (npm run build)', built]] as const) {
    const m = best(runs.get(n)!);
    // The RSS target is the production process's, i.e. the compiled one's.
    const judged = n === 20_000;
    const target = judged ? ` ${ratio(m.p50, TARGET_P50_MS)} ${m.p50 <= TARGET_P50_MS ? '✓' : '✗'}` : ` ${ratio(m.p50, TARGET_P50_MS)}`;
    const rssTarget = judged && runs === built ? ` ${ratio(m.rssMb, TARGET_RSS_MB)} ${m.rssMb <= TARGET_RSS_MB ? '✓' : '✗'}` : ` ${ratio(m.rssMb, TARGET_RSS_MB)}`;
    let row = `| ${n.toLocaleString('en-US')} | ${label} | ${m.inScope.toLocaleString('en-US')} | ${f(m.coldMs, 0)} | ${f(m.p50, 2)} | ${f(m.p99, 1)} |${target} | ${f(m.baseRssMb)} | ${f(m.rssMb)} | ${f(m.rssMb - m.baseRssMb)} |${rssTarget} |`;
    if (previousRoot && runs === ours) {
      const p = best(prev.get(n)!);
      row += ` ${f(p.p50, 2)} | ${ratio(m.p50, p.p50)} | ${f(p.rssMb)} | ${ratio(m.rssMb, p.rssMb)} | ${ratio(m.rssMb - m.baseRssMb, p.rssMb - p.baseRssMb)} |`;
    }
    console.log(row);
  }
}
console.log(`\nTargets at 20,000 pools: p50 ≤ ${TARGET_P50_MS} ms, RSS ≤ ${TARGET_RSS_MB} MB (ratios < 1 meet them). "baseline" = this process after loading only what list_yields needs, before any data; the RSS target is judged on the compiled process, which is what production runs.`);
