import { chainDisplayName, estimateBridgeCostUsd, ROUND_TRIP_GAS_USD } from './chains.ts';
import { costNumbers, scoreCostAdjusted, type CostNumbers, type CostResult } from './cost-adjusted.ts';
import { assessExitRisk } from './exit-risk.ts';
import { explainEntry, type UniverseEntry } from './market-universe.ts';
import type { ScoreContext } from './score-context.ts';
import { APPETITE_WEIGHTS, compositeScore, FACTOR_IDS, round1, type FactorId, type FactorScores } from './weights.ts';

function costInputs(entry: UniverseEntry, ctx: ScoreContext) {
  return {
    grossApyPct: entry.apy.total,
    notionalUsd: ctx.notionalUsd,
    horizonDays: ctx.horizonDays,
    gasRoundTripUsd: ROUND_TRIP_GAS_USD[entry.chain],
    bridgeRoundTripUsd: ctx.sourceChain ? estimateBridgeCostUsd(ctx.sourceChain, entry.chain, ctx.notionalUsd) : 0,
  };
}

/** Hot path (every candidate, every call): numbers only. */
export function costFor(entry: UniverseEntry, ctx: ScoreContext): CostNumbers {
  return costNumbers(costInputs(entry, ctx));
}

export function factorScores(entry: UniverseEntry, cost: CostNumbers): FactorScores {
  return {
    protocolRisk: round1(entry.protocolRisk.score),
    depegCounterparty: round1(entry.depegScore),
    liquidity: round1(entry.liquidityScore),
    yieldQuality: round1(entry.yieldQualityScore),
    costAdjusted: round1(cost.score),
  };
}

export interface FactorDetail {
  readonly id: FactorId;
  readonly score: number;
  readonly weight: number;
  readonly contribution: number;
  readonly rationale: readonly string[];
}

/** The opportunity as every tool returns it (seed `list_yields` fields). */
export function materializeOpportunity(entry: UniverseEntry, ctx: ScoreContext, options: { includeFactors: boolean; includeFactorDetails?: boolean }) {
  const cost: CostResult = scoreCostAdjusted(costInputs(entry, ctx));
  const details = explainEntry(entry);
  const factors = factorScores(entry, cost);
  const blended = compositeScore(factors, ctx.appetite);
  const composite = entry.compositeCap ? Math.min(blended, entry.compositeCap.value) : blended;
  const exit = assessExitRisk(entry.pool.tvlUsd, entry.liquidityConfidence, ctx.notionalUsd, entry.knownIssues);
  const warnings = [...(entry.compositeCap && blended > entry.compositeCap.value ? [entry.compositeCap.reason] : []), ...details.depeg.concerns, ...entry.stability.warnings, ...exit.warnings];
  const weights = APPETITE_WEIGHTS[ctx.appetite];
  const rationales: Record<FactorId, readonly string[]> = {
    protocolRisk: entry.protocolRisk.rationale,
    depegCounterparty: details.depeg.coins.map((c) => c.note),
    liquidity: details.liquidity.rationale,
    yieldQuality: details.yieldQuality.rationale,
    costAdjusted: cost.rationale,
  };
  const factorDetails: FactorDetail[] | undefined = options.includeFactorDetails
    ? FACTOR_IDS.map((id) => ({ id, score: factors[id], weight: weights[id], contribution: round1(weights[id] * factors[id]), rationale: rationales[id] }))
    : undefined;
  return {
    id: entry.pool.pool,
    protocolSlug: entry.pool.project,
    protocolName: entry.protocolName,
    chain: entry.chain,
    chainName: chainDisplayName(entry.chain),
    symbol: entry.pool.symbol,
    underlyingAssets: entry.tokens,
    poolMeta: entry.pool.poolMeta,
    category: entry.category,
    categoryRaw: entry.categoryRaw,
    tvlUsd: entry.pool.tvlUsd,
    apy: { base: entry.apy.base, reward: entry.apy.reward, total: entry.apy.total, rewardShare: entry.apy.rewardShare, net: cost.netApyPct },
    apyChange24h: entry.stability.apyChange24h,
    apyChange7d: entry.pool.apyPct7D,
    tvlChange24hPct: entry.stability.tvlChange24hPct,
    stabilityConfidence: entry.stability.stabilityConfidence,
    scores: { ...factors, compositeRiskAdjusted: composite, ...(options.includeFactors ? { factors: { ...factors } } : {}) },
    ...(factorDetails ? { factors: factorDetails } : {}),
    exitRisk: exit.exitRisk,
    exitRiskReason: exit.exitRiskReason,
    liquidityConfidence: entry.liquidityConfidence,
    costs: { gasRoundTripUsd: ROUND_TRIP_GAS_USD[entry.chain], totalRoundTripUsd: cost.costUsd, horizonDays: ctx.horizonDays, notionalUsd: ctx.notionalUsd, sourceChainKey: ctx.sourceChain },
    warnings,
  };
}

export type Opportunity = ReturnType<typeof materializeOpportunity>;
