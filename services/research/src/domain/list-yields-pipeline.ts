import type { NormalizedCategory } from './category.ts';
import { SUPPORTED_CHAINS, type ChainKey } from './chains.ts';
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
  /** Universe row. */
  readonly row: number;
  readonly composite: number;
  /** The sortBy value, computed once per row rather than per comparison. */
  readonly key: number | null;
}

const CATEGORY_CODE: Record<NormalizedCategory, number> = { lending: 0, rwa: 1, other: 2 };

/**
 * Seed pipeline, in this order: score factors → reweight composite by appetite → category
 * filters → maxRewardShare → minScore → sort → soft-diversity top-k (or a plain slice).
 * Scope filters (chains, assets, minTvlUsd, protocols) choose the candidates before scoring.
 */
export function runListYields(universe: MarketUniverse, q: ListQuery): ListResult {
  const warnings: string[] = [];
  const ctx: ScoreContext = { horizonDays: q.horizonDays, notionalUsd: q.notionalUsd, sourceChain: q.sourceChain, appetite: q.riskAppetite };
  const w = APPETITE_WEIGHTS[q.riskAppetite];

  // One pass over the universe's columns, no per-candidate allocation except surviving rows:
  // this loop is the whole cost of a warm list_yields. The stages keep the seed's order —
  // score → appetite → categories → maxRewardShare → minScore — and each filter only sees rows
  // the previous stage kept.
  let projectAllowed: Uint8Array | null = null;
  if (q.protocols) {
    projectAllowed = new Uint8Array(universe.protocolRiskScore.length);
    for (const slug of q.protocols) {
      const p = universe.projectIndex(slug);
      if (p >= 0) projectAllowed[p] = 1;
    }
  }
  const include = q.categories ? q.categories.map((c) => CATEGORY_CODE[c]) : null;
  const exclude = q.excludeCategories ? q.excludeCategories.map((c) => CATEGORY_CODE[c]) : null;
  const max = q.maxRewardShare;
  const min = q.minScore;
  const years = q.horizonDays / 365;
  // Round-trip cost per chain code (NaN = chain not requested).
  const costUsdByChain = SUPPORTED_CHAINS.map((c) => (q.chains.includes(c) ? costFor({ chain: c, apy: { total: 0 } } as UniverseEntry, ctx).costUsd : NaN));
  const { chainCode, tvlUsd, project, tokens, apyTotal, rewardShare, protocolRiskScore, depegScore, liquidityScore, yieldQualityScore, compositeCap, categoryCode } = universe;
  let candidates = 0;
  let unknownShare = 0;
  const rows: Row[] = [];
  for (let i = 0; i < universe.size; i++) {
    const costUsd = costUsdByChain[chainCode[i]!]!;
    if (costUsd !== costUsd) continue;
    const tvl = tvlUsd[i]!;
    if ((tvl !== tvl ? 0 : tvl) < q.minTvlUsd) continue;
    if (projectAllowed && projectAllowed[project[i]!] !== 1) continue;
    if (q.assets && !poolMatchesAssets(tokens[i]!, q.assets)) continue;
    candidates++;
    // 1–2. Score and reweight by appetite (factors unchanged; only the blend moves). Same
    // arithmetic as costNumbers(), inlined to avoid two objects per candidate.
    const gross = apyTotal[i]!;
    let costScore = 0;
    let netApy: number | null = null;
    if (gross === gross) {
      const expectedYieldUsd = q.notionalUsd * (gross / 100) * years;
      const net = gross - (costUsd / q.notionalUsd / years) * 100;
      const efficiency = expectedYieldUsd > 0 ? Math.min(100, Math.max(0, 100 * (1 - costUsd / expectedYieldUsd))) : 0;
      const level = net > 0 ? 100 * (1 - Math.exp(-net / 5)) : 0;
      costScore = Math.min(100, Math.max(0, 0.5 * efficiency + 0.5 * level));
      netApy = Math.round(net * 1e4) / 1e4;
    }
    const blended = round1(
      w.protocolRisk * round1(protocolRiskScore[project[i]!]!) +
        w.depegCounterparty * round1(depegScore[i]!) +
        w.liquidity * round1(liquidityScore[i]!) +
        w.yieldQuality * round1(yieldQualityScore[i]!) +
        w.costAdjusted * round1(costScore),
    );
    const cap = compositeCap[i]!;
    const composite = cap === cap ? Math.min(blended, cap) : blended;
    // 3. Category include, then exclude.
    const category = categoryCode[i]!;
    if (include && !include.includes(category)) continue;
    if (exclude && exclude.includes(category)) continue;
    // 4. maxRewardShare: an unknown share is excluded (and counted), not treated as 0.
    if (max !== null) {
      const share = rewardShare[i]!;
      if (share !== share) {
        unknownShare++;
        continue;
      }
      if (share > max) continue;
    }
    // 5. minScore on the appetite-weighted composite.
    if (min !== null && composite < min) continue;
    const key = q.sortBy === 'risk_adjusted' ? composite : q.sortBy === 'net_apy' ? netApy : q.sortBy === 'gross_apy' ? (gross === gross ? gross : null) : tvl === tvl ? tvl : null;
    rows.push({ row: i, composite, key });
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
    const ia = universe.id(a.row);
    const ib = universe.id(b.row);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  };

  // 7. Presented top-k. Only the head of the sorted order is ever shown, so select it rather than
  // sort everything; widen the window when diversity skips too many rows to fill `limit`.
  let window = Math.min(rows.length, Math.max(4 * q.limit, 32));
  let picked: { rows: Row[]; truncatedDueToDiversity: boolean };
  for (;;) {
    const head = selectTop(rows, window, compare);
    picked = q.diversity === 'soft' ? softDiversityTopK(head, q.limit, (r) => universe.projectSlug(project[r.row]!)) : { rows: head.slice(0, q.limit), truncatedDueToDiversity: false };
    if (picked.rows.length >= q.limit || window >= rows.length) break;
    window = Math.min(rows.length, window * 4);
  }
  const opportunities = picked.rows.map((r) => materializeOpportunity(universe.entry(r.row), ctx, { includeFactors: q.includeFactors }));
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
