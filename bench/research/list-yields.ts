/**
 * One bench/research measurement: `list_yields` with a warm cache over one generated
 * DefiLlama-shaped universe, in this process. Run by bench/research/main.ts (one process per size
 * and round, so RSS is that universe's alone):
 *
 *   node --import tsx --expose-gc bench/research/list-yields.ts 20000 [IMPL_ROOT]
 *   node --expose-gc OUT/bench/research/list-yields.mjs 20000 OUT     (compiled: see main.ts)
 *
 * prints one JSON line. IMPL_ROOT (default: this repository) is a checkout whose
 * services/research + shared are measured, so an older version can be run through the very same
 * harness for a like-for-like comparison.
 *
 * Honest baseline: the process loads only what list_yields needs (research config, priors, the
 * market cache, the DefiLlama client, the tool, the logger; not the MCP SDK server or Express),
 * then collects garbage and reads RSS *before* any data exists. The data then arrives the way it
 * does in production: DefiLlama's JSON bytes through the real client's fetch → parse path
 * (the generator's objects are dropped as soon as they are serialised), and every fetched
 * snapshot goes through the real persistence serialisation into a store that, like Postgres,
 * keeps nothing in this process.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ITERATIONS = 200;
export const WARMUP = 20;

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

/** The protocol slugs of a universe of `n` pools. */
function projectsOf(n: number): string[] {
  return Array.from({ length: Math.max(50, Math.floor(n / 60)) }, (_, i) => `project-${i}`);
}

/** The `n` pools, one at a time, in the raw API shape (every upstream field, as DefiLlama sends them). */
export function* generatePools(n: number) {
  const r = rng(n);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const projects = projectsOf(n);
  const chainOf = () => {
    let x = r();
    for (const [c, w] of CHAINS) if ((x -= w) <= 0) return c;
    return 'Ethereum';
  };
  for (let i = 0; i < n; i++) {
    const symbol = pick(SYMBOLS);
    const tvlUsd = Math.round(10 ** (4 + r() * 5.5));
    const apyBase = r() < 0.08 ? null : Math.round(r() * 12 * 1e5) / 1e5;
    const apyReward = r() < 0.6 ? null : Math.round(r() * 6 * 1e5) / 1e5;
    yield {
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
  }
}

export function generateProtocols(n: number) {
  const r = rng(n + 1);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  return projectsOf(n).map((slug, i) => ({ id: String(i), name: slug, slug, category: pick(CATEGORIES), chains: ['Ethereum'], tvl: 10 ** (6 + r() * 4), change_1d: (r() - 0.5) * 6, change_7d: (r() - 0.5) * 20, audits: String(Math.floor(r() * 4)), listedAt: 1_600_000_000 + Math.floor(r() * 1e8) }));
}

export function generateStablecoins() {
  return { peggedAssets: ['USDC', 'USDT', 'DAI', 'USDS', 'GHO', 'USDE', 'FRAX', 'CRVUSD', 'PYUSD', 'USD0', 'MSUSD', 'USDY', 'BUIDL'].map((symbol, i) => ({ id: String(i), name: symbol, symbol, pegType: 'peggedUSD', pegMechanism: i % 3 ? 'crypto-backed' : 'fiat-backed', price: symbol === 'MSUSD' ? 0.35 : symbol === 'USDY' ? 1.14 : 0.999, circulating: { peggedUSD: 1e9 } })) };
}

/** `/pools` as a byte stream produced 500 pools at a time, like a response arriving off the network. */
function poolsBody(n: number): ReadableStream<Uint8Array> {
  const pools = generatePools(n);
  const encoder = new TextEncoder();
  let first = true;
  let done = false;
  return new ReadableStream({
    pull(controller) {
      if (done) return controller.close();
      const parts: string[] = [];
      for (let k = 0; k < 500; k++) {
        const next = pools.next();
        if (next.done) {
          done = true;
          break;
        }
        parts.push(JSON.stringify(next.value));
      }
      const head = first ? '{"status":"success","data":[' : parts.length ? ',' : '';
      first = false;
      controller.enqueue(encoder.encode(head + parts.join(',') + (done ? ']}' : '')));
    },
  });
}

export interface Measurement {
  n: number;
  inScope: number;
  coldMs: number;
  p50: number;
  p99: number;
  rssMb: number;
  baseRssMb: number;
  heapUsedMb: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const mb = (bytes: number) => bytes / 2 ** 20;

export async function measure(n: number, implRoot: string): Promise<Measurement> {
  const src = `${implRoot}/services/research/src`;
  // Only what list_yields needs, loaded before any data so the baseline is the process, not the data.
  // `.ts` through tsx (npm start), or `.js` from `npm run build`'s output (production images).
  const ext = existsSync(`${src}/config.ts`) ? 'ts' : 'js';
  const [{ loadResearchConfig }, { loadProtocolPriors }, { MarketData }, { createListYieldsTool }, { createDefillamaClient }, { createLogger }] = await Promise.all([
    import(`${src}/config.${ext}`),
    import(`${src}/domain/protocol-priors.${ext}`),
    import(`${src}/market/market-data.${ext}`),
    import(`${src}/tools/list-yields.${ext}`),
    import(`${src}/upstream/defillama-client.${ext}`),
    import(`${implRoot}/shared/log.${ext}`),
  ]);
  global.gc?.();
  const baseRssMb = mb(process.memoryUsage().rss);

  const asOf = new Date();
  // DefiLlama over "HTTP": a fresh body per request, streamed for /pools; nothing retained by the fake.
  const fakeFetch = async (url: string | URL) => {
    const path = new URL(String(url)).pathname;
    const body = path === '/pools' ? poolsBody(n) : JSON.stringify(path === '/stablecoins' ? generateStablecoins() : generateProtocols(n));
    return new Response(body, { headers: { 'content-type': 'application/json', 'last-modified': asOf.toUTCString() } });
  };
  const client = createDefillamaClient({ yieldsUrl: 'http://llama.test', stablecoinsUrl: 'http://llama.test', apiUrl: 'http://llama.test', timeoutMs: 60_000, fetch: fakeFetch as typeof fetch });
  // Postgres stand-in: the payload is produced (so its cost is paid) and then, as with a real
  // database, not kept in this process.
  const stamps = new Map<string, Date>();
  const store = {
    save: async (s: { source: string; fetchedAt: Date }) => void stamps.set(s.source, s.fetchedAt),
    load: async () => null,
    fetchedAtOf: async (source: string) => stamps.get(source) ?? null,
  };
  const logger = createLogger('silent');
  const config = loadResearchConfig({});
  const priors = loadProtocolPriors();
  const market = new MarketData({ config, client, store, priors, logger });
  const tool = createListYieldsTool({ config, market, priors, logger, now: () => new Date() });
  const ctx = { session: {} as never, requestId: 'bench', signal: new AbortController().signal };
  const args = [{}, { chains: ['base', 'ethereum'], assets: ['USDC', 'USDT'], minTvlUsd: 5_000_000, limit: 10 }, { sortBy: 'net_apy', riskAppetite: 'aggressive', limit: 15 }, { riskAppetite: 'conservative', minScore: 85, excludeCategories: ['rwa'], maxRewardShare: 0.3 }];
  const coldStart = performance.now();
  const first = await tool.handler({}, ctx); // warms the cache: fetch, parse, persist, universe build
  if (first.isError) throw new Error(`bench call failed: ${JSON.stringify(first.content)}`);
  const coldMs = performance.now() - coldStart;
  for (let i = 0; i < WARMUP; i++) await tool.handler(args[i % args.length], ctx);
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t = performance.now();
    const res = await tool.handler(args[i % args.length], ctx);
    times.push(performance.now() - t);
    if (res.isError) throw new Error('bench call failed');
  }
  times.sort((a, b) => a - b);
  global.gc?.();
  const mem = process.memoryUsage();
  const universe = (await market.readMarket()).universe as { size?: number; entries?: unknown[] };
  return { n, inScope: universe.size ?? universe.entries!.length, coldMs, p50: percentile(times, 50), p99: percentile(times, 99), rssMb: mb(mem.rss), baseRssMb, heapUsedMb: mb(mem.heapUsed) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2]);
  if (!Number.isInteger(n) || n <= 0) {
    console.error('usage: node --import tsx --expose-gc bench/research/list-yields.ts POOLS [IMPL_ROOT]');
    process.exit(2);
  }
  const root = process.argv[3] ?? fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
  process.stdout.write(`${JSON.stringify(await measure(n, root))}\n`);
}
