/**
 * list_yields with a warm cache over generated DefiLlama-shaped universes.
 * Run: npx tsx bench/research/list-yields.ts            (parent: spawns one child per size, prints the table)
 *      npx tsx bench/research/list-yields.ts 20000      (child: one size, prints JSON)
 * Each size runs in its own process so RSS is that universe's, not the sum.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../shared/log.ts';
import { loadResearchConfig } from '../../services/research/src/config.ts';
import type { SourceName } from '../../services/research/src/domain/market-snapshot.ts';
import { loadProtocolPriors } from '../../services/research/src/domain/protocol-priors.ts';
import { MarketData } from '../../services/research/src/market/market-data.ts';
import type { SnapshotStore, StoredSnapshot } from '../../services/research/src/store/snapshot-store.ts';
import { createListYieldsTool } from '../../services/research/src/tools/list-yields.ts';
import type { DefillamaClient } from '../../services/research/src/upstream/defillama-client.ts';
import { parsePoolsResponse, parseProtocolsResponse, parseStablecoinsResponse } from '../../services/research/src/upstream/defillama-records.ts';

const SIZES = [2_000, 20_000, 100_000];
const ITERATIONS = 200;

/** Deterministic PRNG so every run scores the same universe. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

const CHAINS: [string, number][] = [['Ethereum', 0.35], ['Base', 0.12], ['Arbitrum', 0.1], ['BSC', 0.1], ['Solana', 0.1], ['Polygon', 0.08], ['Optimism', 0.07], ['Avalanche', 0.08]];
const SYMBOLS = ['USDC', 'USDT', 'DAI', 'USDS', 'SUSDS', 'GHO', 'USDE', 'SUSDE', 'STEAKUSDC', 'GTUSDC', 'USDC-USDT', 'DAI-USDC-USDT', 'FRAX', 'CRVUSD', 'PYUSD', 'USD0', 'MSUSD', 'USDY', 'BUIDL', 'WETH', 'WBTC', 'ETH-USDC'];
const CATEGORIES = ['Lending', 'Lending', 'Dexs', 'Yield', 'RWA', 'CDP', 'Yield Aggregator', 'Insurance', 'RWA Lending'];

function generate(n: number) {
  const r = rng(n);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const projects = Array.from({ length: Math.max(50, Math.floor(n / 60)) }, (_, i) => `project-${i}`);
  const chainOf = () => {
    let x = r();
    for (const [c, w] of CHAINS) if ((x -= w) <= 0) return c;
    return 'Ethereum';
  };
  const data = Array.from({ length: n }, (_, i) => {
    const symbol = pick(SYMBOLS);
    const tvlUsd = Math.round(10 ** (4 + r() * 5.5));
    const apyBase = r() < 0.08 ? null : Math.round(r() * 12 * 1e5) / 1e5;
    const apyReward = r() < 0.6 ? null : Math.round(r() * 6 * 1e5) / 1e5;
    return {
      pool: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      chain: chainOf(),
      project: pick(projects),
      symbol,
      tvlUsd,
      apyBase,
      apyReward,
      apy: (apyBase ?? 0) + (apyReward ?? 0),
      rewardTokens: apyReward ? ['0xabc'] : null,
      apyPct1D: r() < 0.1 ? null : (r() - 0.5) * 2,
      apyPct7D: r() < 0.1 ? null : (r() - 0.5) * 4,
      apyPct30D: r() < 0.2 ? null : (r() - 0.5) * 6,
      stablecoin: !/WETH|WBTC|ETH-/.test(symbol),
      ilRisk: symbol.includes('-') ? 'yes' : 'no',
      exposure: symbol.includes('-') ? 'multi' : 'single',
      predictions: { predictedClass: r() < 0.3 ? 'Down' : 'Stable/Up', predictedProbability: 60 + r() * 40, binnedConfidence: 1 + Math.floor(r() * 3) },
      poolMeta: r() < 0.1 ? '7 days unstaking' : null,
      mu: r() * 10,
      sigma: r() * 2,
      count: Math.floor(r() * 1000),
      outlier: r() < 0.03,
      underlyingTokens: ['0xdef'],
      il7d: null,
      apyBase7d: null,
      apyMean30d: r() * 8,
      volumeUsd1d: null,
      volumeUsd7d: null,
      apyBaseInception: null,
    };
  });
  const protocols = projects.map((slug, i) => ({ id: String(i), name: slug, slug, category: pick(CATEGORIES), chains: ['Ethereum'], tvl: 10 ** (6 + r() * 4), change_1d: (r() - 0.5) * 6, change_7d: (r() - 0.5) * 20, audits: String(Math.floor(r() * 4)), listedAt: 1_600_000_000 + Math.floor(r() * 1e8) }));
  const stablecoins = { peggedAssets: ['USDC', 'USDT', 'DAI', 'USDS', 'GHO', 'USDE', 'FRAX', 'CRVUSD', 'PYUSD', 'USD0', 'MSUSD', 'USDY', 'BUIDL'].map((symbol, i) => ({ id: String(i), name: symbol, symbol, pegType: 'peggedUSD', pegMechanism: i % 3 ? 'crypto-backed' : 'fiat-backed', price: symbol === 'MSUSD' ? 0.35 : symbol === 'USDY' ? 1.14 : 0.999, circulating: { peggedUSD: 1e9 } })) };
  return { pools: { status: 'success', data }, protocols, stablecoins };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function child(n: number) {
  global.gc?.();
  const baseRssMb = process.memoryUsage().rss / 2 ** 20;
  const { pools, protocols, stablecoins } = generate(n);
  const now = new Date();
  const client: DefillamaClient = {
    fetchPools: async () => ({ ...parsePoolsResponse(pools), asOf: now }),
    fetchPegs: async () => ({ ...parseStablecoinsResponse(stablecoins), asOf: now }),
    fetchProtocols: async () => ({ ...parseProtocolsResponse(protocols), asOf: now }),
  };
  const rows = new Map<SourceName, StoredSnapshot>();
  const store: SnapshotStore = { save: async (s) => void rows.set(s.source, s), load: async (s) => rows.get(s) ?? null, fetchedAtOf: async (s) => rows.get(s)?.fetchedAt ?? null };
  const logger = createLogger('silent');
  const config = loadResearchConfig({});
  const priors = loadProtocolPriors();
  const market = new MarketData({ config, client, store, priors, logger });
  const tool = createListYieldsTool({ config, market, priors, logger, now: () => new Date() });
  const ctx = { session: {} as never, requestId: 'bench', signal: new AbortController().signal };
  const args = [{}, { chains: ['base', 'ethereum'], assets: ['USDC', 'USDT'], minTvlUsd: 5_000_000, limit: 10 }, { sortBy: 'net_apy', riskAppetite: 'aggressive', limit: 15 }, { riskAppetite: 'conservative', minScore: 85, excludeCategories: ['rwa'], maxRewardShare: 0.3 }];
  const coldStart = performance.now();
  await tool.handler({}, ctx); // warms the cache: fetch, parse, universe build
  const coldMs = performance.now() - coldStart;
  for (let i = 0; i < 20; i++) await tool.handler(args[i % args.length] as never, ctx);
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t = performance.now();
    const res = await tool.handler(args[i % args.length] as never, ctx);
    times.push(performance.now() - t);
    if (res.isError) throw new Error('bench call failed');
  }
  times.sort((a, b) => a - b);
  global.gc?.();
  const inScope = (await market.readMarket()).universe.entries.length;
  process.stdout.write(JSON.stringify({ n, inScope, coldMs, p50: percentile(times, 50), p99: percentile(times, 99), rssMb: process.memoryUsage().rss / 2 ** 20, baseRssMb }));
}

function parent() {
  const self = fileURLToPath(import.meta.url);
  const results = SIZES.map((n) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', self, String(n)], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as { n: number; inScope: number; coldMs: number; p50: number; p99: number; rssMb: number; baseRssMb: number };
  });
  const base = results[0]!;
  console.log(`list_yields, warm cache, ${ITERATIONS} calls per size over 4 argument shapes (Node ${process.version})\n`);
  console.log('| pools | in scope | cold build ms | p50 ms | p99 ms | p50 µs / pool | p50 vs 2k (pool ratio) | RSS MB | RSS over process baseline MB | target |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    const target = r.n === 20_000 ? `p50 ≤ 15 ms ${r.p50 <= 15 ? '✓' : '✗'}, RSS ≤ 150 MB ${r.rssMb <= 150 ? '✓' : '✗'} (data ${r.rssMb - r.baseRssMb <= 150 ? '✓' : '✗'})` : '';
    console.log(`| ${r.n.toLocaleString('en-US')} | ${r.inScope.toLocaleString('en-US')} | ${r.coldMs.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${((r.p50 * 1000) / r.n).toFixed(3)} | ${(r.p50 / base.p50).toFixed(1)}× (${r.n / base.n}×) | ${r.rssMb.toFixed(0)} | ${(r.rssMb - r.baseRssMb).toFixed(0)} | ${target} |`);
  }
}

const arg = process.argv[2];
if (arg) await child(Number(arg));
else parent();
