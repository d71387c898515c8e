import { describe, expect, it } from 'vitest';
import { fixturePools, fixtureProtocols, fixtureStablecoins, ID } from '../testing/defillama-fixtures.ts';
import { parsePoolsResponse, parseProtocolsResponse, parseStablecoinsResponse } from '../upstream/defillama-records.ts';
import { SUPPORTED_CHAINS } from './chains.ts';
import { runListYields, type ListQuery } from './list-yields-pipeline.ts';
import { buildMarketUniverse, type MarketUniverse } from './market-universe.ts';
import { loadProtocolPriors } from './protocol-priors.ts';

function universe(pools = fixturePools()): MarketUniverse {
  return buildMarketUniverse({
    pools: parsePoolsResponse({ status: 'success', data: pools }).records,
    pegs: parseStablecoinsResponse(fixtureStablecoins()).records,
    protocols: parseProtocolsResponse(fixtureProtocols()).records,
    priors: loadProtocolPriors(),
    now: new Date('2026-09-02T12:00:00Z'),
  });
}

const DEFAULTS: ListQuery = {
  chains: [...SUPPORTED_CHAINS],
  assets: null,
  minTvlUsd: 0,
  protocols: null,
  limit: 100,
  horizonDays: 30,
  notionalUsd: 10_000,
  sourceChain: null,
  sortBy: 'risk_adjusted',
  sortOrder: 'desc',
  riskAppetite: 'balanced',
  minScore: null,
  categories: null,
  excludeCategories: null,
  diversity: 'off',
  includeFactors: false,
  maxRewardShare: null,
};

const u = universe();
const run = (q: Partial<ListQuery>) => runListYields(u, { ...DEFAULTS, ...q });
const ids = (q: Partial<ListQuery>) => run(q).opportunities.map((o) => o.id);

describe('market universe (scope)', () => {
  it('keeps stablecoin pools on the three chains only', () => {
    expect(u.byId.has(ID.kaminoSolana)).toBe(false);
    expect(u.byId.has(ID.aaveOptimism)).toBe(false);
    expect(u.byId.has(ID.aaveWethEth)).toBe(false);
    expect(u.size).toBe(fixturePools().length - 3);
  });
  it('keeps categoryRaw beside the normalised category, Maple syrup as rwa', () => {
    expect(u.byId.get(ID.mapleSyrupUsdc)).toMatchObject({ category: 'rwa', categoryRaw: 'Lending' });
    expect(u.byId.get(ID.nexusInsuranceEth)).toMatchObject({ category: 'other', categoryRaw: 'Insurance' });
    expect(u.byId.get(ID.usdaiRwaArb)).toMatchObject({ category: 'rwa', categoryRaw: 'RWA Lending' });
  });
});

describe('runListYields (seed pipeline)', () => {
  it('defaults rank by composite descending', () => {
    const { opportunities } = run({});
    const scores = opportunities.map((o) => o.scores.compositeRiskAdjusted);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('chains filter narrows the universe', () => {
    expect(run({ chains: ['base'] }).opportunities.every((o) => o.chain === 'base')).toBe(true);
  });

  it('assets matches tokens and wrappers; minTvlUsd and protocols scope the candidates', () => {
    expect(run({ assets: ['USDT'] }).opportunities.every((o) => o.underlyingAssets.some((t) => t.includes('USDT')))).toBe(true);
    expect(ids({ assets: ['USDT'] })).toContain(ID.morphoGtUsdtEth);
    expect(run({ minTvlUsd: 500_000_000 }).opportunities.every((o) => (o.tvlUsd ?? 0) >= 500_000_000)).toBe(true);
    expect(new Set(run({ protocols: ['maple'] }).opportunities.map((o) => o.protocolSlug))).toEqual(new Set(['maple']));
  });

  it('riskAppetite reweights the composite without changing factor scores', () => {
    const c = run({ riskAppetite: 'conservative' }).opportunities.find((o) => o.id === ID.eulerJumpArb)!;
    const a = run({ riskAppetite: 'aggressive' }).opportunities.find((o) => o.id === ID.eulerJumpArb)!;
    const { compositeRiskAdjusted: cc, ...cf } = c.scores;
    const { compositeRiskAdjusted: ac, ...af } = a.scores;
    expect(cf).toEqual(af);
    expect(cc).not.toBe(ac);
  });

  it('categories include, then excludeCategories exclude', () => {
    expect(new Set(run({ categories: ['rwa'] }).opportunities.map((o) => o.category))).toEqual(new Set(['rwa']));
    expect(run({ excludeCategories: ['rwa'] }).opportunities.some((o) => o.category === 'rwa')).toBe(false);
    expect(run({ categories: ['rwa', 'lending'], excludeCategories: ['rwa'] }).opportunities.every((o) => o.category === 'lending')).toBe(true);
  });

  it('maxRewardShare keeps share ≤ max, excludes unknown shares with a warning, keeps high base-only APY', () => {
    const r = run({ maxRewardShare: 0.1 });
    expect(r.opportunities.every((o) => o.apy.rewardShare !== null && o.apy.rewardShare <= 0.1)).toBe(true);
    expect(r.opportunities.map((o) => o.id)).not.toContain(ID.unknownShareArb);
    expect(r.opportunities.map((o) => o.id)).not.toContain(ID.rewardOnlyZeroGrossBase);
    expect(r.opportunities.map((o) => o.id)).toContain(ID.concreteOutlierEth);
    expect(r.warnings).toEqual([expect.stringMatching(/maxRewardShare: excluded 2 opportunities whose reward share is unknown/)]);
    expect(run({}).warnings).toEqual([]);
  });

  it('minScore drops rows below the appetite-weighted composite', () => {
    const r = run({ minScore: 85, riskAppetite: 'conservative' });
    expect(r.opportunities.length).toBeGreaterThan(0);
    expect(r.opportunities.every((o) => o.scores.compositeRiskAdjusted >= 85)).toBe(true);
  });

  it('minScore applies after appetite: a row can pass under one appetite and not another', () => {
    const under = (appetite: ListQuery['riskAppetite']) => ids({ minScore: 80, riskAppetite: appetite });
    expect(under('conservative')).not.toEqual(under('aggressive'));
  });

  it('category filters run before minScore, maxRewardShare before minScore (empty ⇒ warning)', () => {
    const r = run({ categories: ['other'], minScore: 99 });
    expect(r.opportunities).toEqual([]);
    expect(r.warnings).toEqual([expect.stringContaining('No opportunities match')]);
  });

  it.each(['net_apy', 'gross_apy', 'tvl'] as const)('sortBy %s desc and asc', (sortBy) => {
    const key = (o: ReturnType<typeof run>['opportunities'][number]) => (sortBy === 'net_apy' ? o.apy.net : sortBy === 'gross_apy' ? o.apy.total : o.tvlUsd);
    const desc = run({ sortBy }).opportunities.map(key).filter((v) => v !== null) as number[];
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const asc = run({ sortBy, sortOrder: 'asc' }).opportunities.map(key).filter((v) => v !== null) as number[];
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
  });

  it('rows without the sort value go last', () => {
    const r = run({ sortBy: 'tvl', sortOrder: 'asc' }).opportunities;
    expect(r[r.length - 1].id).toBe(ID.noTvlBase);
  });

  it('soft diversity keeps ≤ 2 per protocol in the top-k and says when it truncated', () => {
    const soft = run({ diversity: 'soft', limit: 10 });
    const counts = new Map<string, number>();
    for (const o of soft.opportunities) counts.set(o.protocolSlug, (counts.get(o.protocolSlug) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
    expect(soft.truncatedDueToDiversity).toBe(true);
    expect(soft.protocolsRepresented).toBe(counts.size);
    const off = run({ diversity: 'off', protocols: ['aave-v3'], limit: 10 });
    expect(off.opportunities.length).toBe(5);
    expect(off.truncatedDueToDiversity).toBe(false);
  });

  it('diversity is presentation only: kept rows keep their scores and relative order', () => {
    const off = run({ diversity: 'off' }).opportunities;
    const soft = run({ diversity: 'soft', limit: 100 }).opportunities;
    const order = off.map((o) => o.id).filter((id) => soft.some((s) => s.id === id));
    expect(soft.map((o) => o.id)).toEqual(order);
  });

  it('limit slices after everything else', () => {
    expect(run({ limit: 3 }).opportunities.map((o) => o.id)).toEqual(run({}).opportunities.slice(0, 3).map((o) => o.id));
  });

  it('includeFactors adds scores.factors; the default omits it', () => {
    expect(run({ limit: 1 }).opportunities[0].scores).not.toHaveProperty('factors');
    const f = run({ limit: 1, includeFactors: true }).opportunities[0].scores;
    expect(f.factors).toEqual({ protocolRisk: f.protocolRisk, depegCounterparty: f.depegCounterparty, liquidity: f.liquidity, yieldQuality: f.yieldQuality, costAdjusted: f.costAdjusted });
  });

  it('horizonDays, notionalUsd and sourceChain move the cost factor and exit risk', () => {
    const at = (q: Partial<ListQuery>) => run(q).opportunities.find((o) => o.id === ID.aaveUsdcEth)!;
    expect(at({ horizonDays: 365 }).scores.costAdjusted).toBeGreaterThan(at({ horizonDays: 7 }).scores.costAdjusted);
    expect(at({ notionalUsd: 1_000_000 }).scores.costAdjusted).toBeGreaterThan(at({ notionalUsd: 1_000 }).scores.costAdjusted);
    expect(at({ sourceChain: 'base' }).costs.totalRoundTripUsd).toBeGreaterThan(at({ sourceChain: 'ethereum' }).costs.totalRoundTripUsd);
    const tiny = (n: number) => run({ notionalUsd: n }).opportunities.find((o) => o.id === ID.concreteOutlierEth)!.exitRisk;
    expect([tiny(10_000), tiny(2_000_000)]).toEqual(['medium', 'high']);
  });

  it('opportunity fields: null apyChange24h is not 0, protocol-level tvlChange24hPct, reward share null never 0', () => {
    const all = run({}).opportunities;
    const pt = all.find((o) => o.id === ID.pendlePtArb)!;
    expect(pt.apyChange24h).toBeNull();
    expect(pt.stabilityConfidence).toBe('medium');
    expect(all.find((o) => o.id === ID.aaveUsdtEth)!.apyChange24h).toBe(0);
    expect(new Set(all.filter((o) => o.protocolSlug === 'aave-v3').map((o) => o.tvlChange24hPct))).toEqual(new Set([-2.28]));
    expect(all.find((o) => o.id === ID.usdyEth)!.tvlChange24hPct).toBeNull();
    expect(all.find((o) => o.id === ID.rewardOnlyZeroGrossBase)!.apy).toMatchObject({ reward: 3, total: 0, rewardShare: null });
    expect(all.find((o) => o.id === ID.eulerJumpArb)!.warnings).toEqual([expect.stringContaining('+6.20 pp')]);
    expect(all.find((o) => o.id === ID.buidlEth)!.warnings).toContain('exitRisk is liquidity-only; protocol notes transfer/eligibility restrictions');
  });

  it('a ≥ 5 pp APY move warns but does not change ranking', () => {
    const calm = fixturePools().map((p) => (p.pool === ID.eulerJumpArb ? { ...p, apyPct1D: 0.1 } : p));
    const a = runListYields(universe(calm), DEFAULTS).opportunities.map((o) => o.id);
    expect(a).toEqual(ids({}));
  });
});

describe('score bands on realistic data (seed minScore table)', () => {
  it('strong blue-chip lending lands in ≈ 85–92 under balanced weights', () => {
    for (const id of [ID.aaveUsdcEth, ID.aaveUsdtEth, ID.aaveUsdcBase, ID.aaveUsdcArb, ID.compUsdcEth, ID.morphoSteakBase]) {
      const o = run({}).opportunities.find((x) => x.id === id)!;
      expect(o.scores.compositeRiskAdjusted, id).toBeGreaterThanOrEqual(85);
      expect(o.scores.compositeRiskAdjusted, id).toBeLessThanOrEqual(92.5);
    }
  });
  it('depegged, outlier, unknown-protocol and zero-APY pools fall below 70', () => {
    for (const id of [ID.msusdEth, ID.concreteOutlierEth, ID.tinyVaultBase, ID.uniZeroEth]) {
      expect(run({}).opportunities.find((x) => x.id === id)!.scores.compositeRiskAdjusted, id).toBeLessThan(70);
    }
  });
});
