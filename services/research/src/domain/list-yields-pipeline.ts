import type { NormalizedCategory } from './category.ts';
import type { ChainKey } from './chains.ts';
import type { MarketUniverse, UniverseEntry } from './market-universe.ts';
import { costFor, materializeOpportunity, type Opportunity } from './opportunity.ts';
import { poolMatchesAssets } from './pool-tokens.ts';
import type { ScoreContext } from './score-context.ts';
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
}

function sortValue(row: Row, sortBy: SortBy): number | null {
  switch (sortBy) {
    case 'risk_adjusted':
      return row.composite;
    case 'net_apy':
      return row.netApy;
    case 'gross_apy':
      return row.entry.apy.total;
    case 'tvl':
      return row.entry.pool.tvlUsd;
  }
}

/**
 * Seed pipeline, in this order: score factors → reweight composite by appetite → category
 * filters → maxRewardShare → minScore → sort → soft-diversity top-k (or a plain slice).
 * Scope filters (chains, assets, minTvlUsd, protocols) choose the candidates before scoring.
 */
export function runListYields(universe: MarketUniverse, q: ListQuery): ListResult {
  const warnings: string[] = [];
  const chains = new Set(q.chains);
  const protocols = q.protocols ? new Set(q.protocols) : null;
  const ctx: ScoreContext = { horizonDays: q.horizonDays, notionalUsd: q.notionalUsd, sourceChain: q.sourceChain, appetite: q.riskAppetite };
  const w = APPETITE_WEIGHTS[q.riskAppetite];

  // 1–2. Score candidates and reweight by appetite (factors are unchanged; only the blend moves).
  let rows: Row[] = [];
  for (const entry of universe.entries) {
    if (!chains.has(entry.chain)) continue;
    if ((entry.pool.tvlUsd ?? 0) < q.minTvlUsd) continue;
    if (protocols && !protocols.has(entry.pool.project)) continue;
    if (q.assets && !poolMatchesAssets(entry.tokens, q.assets)) continue;
    const cost = costFor(entry, ctx);
    const blended = round1(
      w.protocolRisk * round1(entry.protocolRisk.score) +
        w.depegCounterparty * round1(entry.depeg.score) +
        w.liquidity * round1(entry.liquidity.score) +
        w.yieldQuality * round1(entry.yieldQuality.score) +
        w.costAdjusted * round1(cost.score),
    );
    const composite = entry.compositeCap ? Math.min(blended, entry.compositeCap.value) : blended;
    rows.push({ entry, composite, netApy: cost.netApyPct });
  }
  const candidates = rows.length;

  // 3. Category include, then exclude.
  if (q.categories) {
    const include = new Set(q.categories);
    rows = rows.filter((r) => include.has(r.entry.category));
  }
  if (q.excludeCategories) {
    const exclude = new Set(q.excludeCategories);
    rows = rows.filter((r) => !exclude.has(r.entry.category));
  }

  // 4. maxRewardShare: an unknown share is excluded, not treated as 0.
  if (q.maxRewardShare !== null) {
    const max = q.maxRewardShare;
    let unknown = 0;
    rows = rows.filter((r) => {
      const share = r.entry.apy.rewardShare;
      if (share === null) {
        unknown++;
        return false;
      }
      return share <= max;
    });
    if (unknown > 0) warnings.push(`maxRewardShare: excluded ${unknown} opportunit${unknown === 1 ? 'y' : 'ies'} whose reward share is unknown (not treated as 0)`);
  }

  // 5. minScore on the appetite-weighted composite.
  if (q.minScore !== null) {
    const min = q.minScore;
    rows = rows.filter((r) => r.composite >= min);
  }
  const matched = rows.length;

  // 6. Sort; rows without the sort value go last in either direction; ties break on composite, then id.
  const dir = q.sortOrder === 'asc' ? 1 : -1;
  rows.sort((a, b) => {
    const va = sortValue(a, q.sortBy);
    const vb = sortValue(b, q.sortBy);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else if (va !== vb) return (va - vb) * dir;
    if (a.composite !== b.composite) return b.composite - a.composite;
    return a.entry.pool.pool < b.entry.pool.pool ? -1 : 1;
  });

  // 7. Presented top-k.
  const picked = q.diversity === 'soft' ? softDiversityTopK(rows, q.limit, (r) => r.entry.pool.project) : { rows: rows.slice(0, q.limit), truncatedDueToDiversity: false };
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
