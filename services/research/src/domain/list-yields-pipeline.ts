import type { NormalizedCategory } from './category.ts';
import type { ChainKey } from './chains.ts';
import type { MarketUniverse, UniverseEntry } from './market-universe.ts';
import { costFor, materializeOpportunity, type Opportunity } from './opportunity.ts';
import { poolMatchesAssets } from './pool-tokens.ts';
import type { ScoreContext } from './score-context.ts';
import { selectTop } from './select-top.ts';
import { softDiversityTopK } from './soft-diversity.ts';
import { APPETITE_WEIGHTS, round1, type RiskAppetite } from './weights.ts';

export const SORT_KEYS = ['risk_adjusted', 'net_apy', 'gross_apy', 'tvl'] as const;
export type SortBy = (typeof SORT_KEYS)[number];

export interface ListQuery {
  readonly chains: readonly ChainKey[];
  readonly assets: readonly string[] | null;
  readonly minTvlUsd: number;
  readonly protocols: readonly string[] | null;
  readonly limit: number;
  readonly horizonDays: number;
  readonly notionalUsd: number;
  readonly sourceChain: ChainKey | null;
  readonly sortBy: SortBy;
  readonly sortOrder: 'asc' | 'desc';
  readonly riskAppetite: RiskAppetite;
  readonly minScore: number | null;
  readonly categories: readonly NormalizedCategory[] | null;
  readonly excludeCategories: readonly NormalizedCategory[] | null;
  readonly diversity: 'soft' | 'off';
  readonly includeFactors: boolean;
  readonly maxRewardShare: number | null;
}

export interface ListResult {
  readonly opportunities: Opportunity[];
  readonly candidates: number;
  readonly matched: number;
  readonly truncatedDueToDiversity: boolean;
  readonly protocolsRepresented: number;
  readonly warnings: string[];
}

interface Row {
  readonly entry: UniverseEntry;
  readonly composite: number;
  readonly netApy: number | null;
  /** The sortBy value, computed once per row rather than per comparison. */
  readonly key: number | null;
}

function sortValue(entry: UniverseEntry, composite: number, netApy: number | null, sortBy: SortBy): number | null {
  switch (sortBy) {
    case 'risk_adjusted':
      return composite;
    case 'net_apy':
      return netApy;
    case 'gross_apy':
      return entry.apy.total;
    case 'tvl':
      return entry.pool.tvlUsd;
  }
}

/**
 * Seed pipeline, in this order: score factors → reweight composite by appetite → category
 * filters → maxRewardShare → minScore → sort → soft-diversity top-k (or a plain slice).
 * Scope filters (chains, assets, minTvlUsd, protocols) choose the candidates before scoring.
 */
export function runListYields(universe: MarketUniverse, q: ListQuery): ListResult {
  const warnings: string[] = [];
  const protocols = q.protocols ? new Set(q.protocols) : null;
  const ctx: ScoreContext = { horizonDays: q.horizonDays, notionalUsd: q.notionalUsd, sourceChain: q.sourceChain, appetite: q.riskAppetite };
  const w = APPETITE_WEIGHTS[q.riskAppetite];

  // One pass, no per-candidate allocation except surviving rows: this loop is the whole cost of
  // a warm list_yields. The stages keep the seed's order — score → appetite → categories →
  // maxRewardShare → minScore — and each filter only sees rows the previous stage kept.
  const include = q.categories ? new Set(q.categories) : null;
  const exclude = q.excludeCategories ? new Set(q.excludeCategories) : null;
  const max = q.maxRewardShare;
  const min = q.minScore;
  const years = q.horizonDays / 365;
  const costUsdByChain = new Map(q.chains.map((c) => [c, costFor({ chain: c, apy: { total: 0 } } as UniverseEntry, ctx).costUsd]));
  let candidates = 0;
  let unknownShare = 0;
  const rows: Row[] = [];
  for (const entry of universe.entries) {
    const costUsd = costUsdByChain.get(entry.chain);
    if (costUsd === undefined) continue;
    if ((entry.pool.tvlUsd ?? 0) < q.minTvlUsd) continue;
    if (protocols && !protocols.has(entry.pool.project)) continue;
    if (q.assets && !poolMatchesAssets(entry.tokens, q.assets)) continue;
    candidates++;
    // 1–2. Score and reweight by appetite (factors unchanged; only the blend moves). Same
    // arithmetic as costNumbers(), inlined to avoid two objects per candidate.
    const gross = entry.apy.total;
    let costScore = 0;
    let netApy: number | null = null;
    if (gross !== null) {
      const expectedYieldUsd = q.notionalUsd * (gross / 100) * years;
      const net = gross - (costUsd / q.notionalUsd / years) * 100;
      const efficiency = expectedYieldUsd > 0 ? Math.min(100, Math.max(0, 100 * (1 - costUsd / expectedYieldUsd))) : 0;
      const level = net > 0 ? 100 * (1 - Math.exp(-net / 5)) : 0;
      costScore = Math.min(100, Math.max(0, 0.5 * efficiency + 0.5 * level));
      netApy = Math.round(net * 1e4) / 1e4;
    }
    const blended = round1(
      w.protocolRisk * round1(entry.protocolRisk.score) +
        w.depegCounterparty * round1(entry.depegScore) +
        w.liquidity * round1(entry.liquidityScore) +
        w.yieldQuality * round1(entry.yieldQualityScore) +
        w.costAdjusted * round1(costScore),
    );
    const composite = entry.compositeCap ? Math.min(blended, entry.compositeCap.value) : blended;
    // 3. Category include, then exclude.
    if (include && !include.has(entry.category)) continue;
    if (exclude && exclude.has(entry.category)) continue;
    // 4. maxRewardShare: an unknown share is excluded (and counted), not treated as 0.
    if (max !== null) {
      const share = entry.apy.rewardShare;
      if (share === null) {
        unknownShare++;
        continue;
      }
      if (share > max) continue;
    }
    // 5. minScore on the appetite-weighted composite.
    if (min !== null && composite < min) continue;
    rows.push({ entry, composite, netApy, key: sortValue(entry, composite, netApy, q.sortBy) });
  }
  if (unknownShare > 0) warnings.push(`maxRewardShare: excluded ${unknownShare} opportunit${unknownShare === 1 ? 'y' : 'ies'} whose reward share is unknown (not treated as 0)`);
  const matched = rows.length;


  // 6. Sort; rows without the sort value go last in either direction; ties break on composite, then id.
  const dir = q.sortOrder === 'asc' ? 1 : -1;
  const compare = (a: Row, b: Row) => {
    const va = a.key;
    const vb = b.key;
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else if (va !== vb) return (va - vb) * dir;
    if (a.composite !== b.composite) return b.composite - a.composite;
    return a.entry.pool.pool < b.entry.pool.pool ? -1 : a.entry.pool.pool > b.entry.pool.pool ? 1 : 0;
  };

  // 7. Presented top-k. Only the head of the sorted order is ever shown, so select it rather than
  // sort everything; widen the window when diversity skips too many rows to fill `limit`.
  let window = Math.min(rows.length, Math.max(4 * q.limit, 32));
  let picked: { rows: Row[]; truncatedDueToDiversity: boolean };
  for (;;) {
    const head = selectTop(rows, window, compare);
    picked = q.diversity === 'soft' ? softDiversityTopK(head, q.limit, (r) => r.entry.pool.project) : { rows: head.slice(0, q.limit), truncatedDueToDiversity: false };
    if (picked.rows.length >= q.limit || window >= rows.length) break;
    window = Math.min(rows.length, window * 4);
  }
  const opportunities = picked.rows.map((r) => materializeOpportunity(r.entry, ctx, { includeFactors: q.includeFactors }));
  if (opportunities.length === 0) warnings.push('No opportunities match the requested filters; relax minScore, minTvlUsd, assets, categories or maxRewardShare.');
  return {
    opportunities,
    candidates,
    matched,
    truncatedDueToDiversity: picked.truncatedDueToDiversity,
    protocolsRepresented: new Set(opportunities.map((o) => o.protocolSlug)).size,
    warnings,
  };
}
