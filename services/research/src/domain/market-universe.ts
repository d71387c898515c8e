import { normalizeCategory, type NormalizedCategory } from './category.ts';
import { chainKeyOfPool, type ChainKey } from './chains.ts';
import { assessDepegCounterparty, type DepegAssessment } from './depeg-counterparty.ts';
import { scoreLiquidity, type LiquidityResult } from './liquidity.ts';
import type { PeggedAssetRecord, PoolRecord, ProtocolRecord } from './market-snapshot.ts';
import { buildPegIndex, type PegIndex } from './peg-index.ts';
import { poolTokens } from './pool-tokens.ts';
import type { ProtocolPrior, ProtocolPriors } from './protocol-priors.ts';
import { scoreProtocolRisk, type FactorResult } from './protocol-risk.ts';
import { apyBreakdown, type ApyBreakdown } from './reward-share.ts';
import { stabilitySignals, type StabilitySignals } from './stability.ts';
import { scoreYieldQuality } from './yield-quality.ts';

/**
 * One in-scope pool with everything that does not depend on the request precomputed: four of
 * the five factors, category, reward share, stability. Built once per snapshot so a
 * `list_yields` call only pays for filtering, the cost factor, sorting and the returned rows.
 */
export interface UniverseEntry {
  readonly pool: PoolRecord;
  readonly chain: ChainKey;
  readonly tokens: readonly string[];
  /** Upper-cased tokens joined, for the `assets` filter's substring test. */
  readonly protocolName: string;
  readonly category: NormalizedCategory;
  readonly categoryRaw: string | null;
  readonly apy: ApyBreakdown;
  readonly protocolRisk: FactorResult;
  /** Scores only: rationales are rebuilt by `explainEntry` for the few rows an answer returns, to keep a 20k-pool universe small. */
  readonly depegScore: number;
  readonly liquidityScore: number;
  readonly liquidityConfidence: LiquidityResult['confidence'];
  readonly yieldQualityScore: number;
  readonly protocolMeta: ProtocolRecord | undefined;
  readonly pegIndex: PegIndex | null;
  readonly stability: StabilitySignals;
  readonly knownIssues: readonly string[];
  /** Min-cap cascade: a hard ceiling on the composite, whatever the weighted blend says. */
  readonly compositeCap: { readonly value: number; readonly reason: string } | null;
}

/**
 * Weighted sums let strong factors hide a fatal one (a 294 % outlier still scores well on
 * protocol and peg). Like Philidor's min-cap cascade, these flags cap the composite instead.
 */
export const OUTLIER_CAP = 69;
export const DEPEG_CAP = 60;
export function compositeCapOf(outlier: boolean, depegScore: number): UniverseEntry['compositeCap'] {
  if (depegScore < 40) return { value: DEPEG_CAP, reason: `composite capped at ${DEPEG_CAP}: a held coin is materially off its peg or unknown` };
  if (outlier) return { value: OUTLIER_CAP, reason: `composite capped at ${OUTLIER_CAP}: DefiLlama flags the pool as a statistical outlier` };
  return null;
}

export interface MarketUniverse {
  readonly entries: readonly UniverseEntry[];
  readonly byId: ReadonlyMap<string, UniverseEntry>;
  readonly protocols: ReadonlyMap<string, ProtocolRecord>;
  readonly priors: ProtocolPriors;
  readonly pegsAvailable: boolean;
  readonly protocolsAvailable: boolean;
}

export interface UniverseInputs {
  readonly pools: readonly PoolRecord[];
  readonly pegs: readonly PeggedAssetRecord[] | null;
  readonly protocols: readonly ProtocolRecord[] | null;
  readonly priors: ProtocolPriors;
  readonly now: Date;
}

export function buildMarketUniverse(input: UniverseInputs): MarketUniverse {
  const protocols = new Map((input.protocols ?? []).map((p) => [p.slug, p]));
  const pegIndex = input.pegs ? buildPegIndex(input.pegs) : null;
  const protocolRiskMemo = new Map<string, FactorResult>();
  const entries: UniverseEntry[] = [];
  const byId = new Map<string, UniverseEntry>();
  for (const pool of input.pools) {
    // v1 is stablecoin yields on three chains: DefiLlama's flag decides the universe, the
    // stablecoins feed (below) decides how safe each coin actually is.
    if (!pool.stablecoin) continue;
    const chain = chainKeyOfPool(pool.chain);
    if (!chain) continue;
    const meta = protocols.get(pool.project);
    const prior: ProtocolPrior | undefined = input.priors.get(pool.project);
    const categoryRaw = meta?.category ?? null;
    const category = normalizeCategory({ project: pool.project, symbol: pool.symbol, poolMeta: pool.poolMeta, categoryRaw, override: prior?.categoryOverride });
    let protocolRisk = protocolRiskMemo.get(pool.project);
    if (!protocolRisk) {
      protocolRisk = scoreProtocolRisk(meta, prior, input.now);
      protocolRiskMemo.set(pool.project, protocolRisk);
    }
    const tokens = poolTokens(pool.symbol);
    const apy = apyBreakdown(pool.apyBase, pool.apyReward, pool.apy);
    const depeg = assessDepegCounterparty(tokens, pegIndex, category === 'rwa');
    const liquidity = scoreLiquidity(pool, meta, category === 'lending');
    const entry: UniverseEntry = {
      pool,
      chain,
      tokens,
      protocolName: meta?.name ?? prior?.name ?? pool.project,
      category,
      categoryRaw,
      apy,
      protocolRisk,
      depegScore: depeg.score,
      liquidityScore: liquidity.score,
      liquidityConfidence: liquidity.confidence,
      yieldQualityScore: scoreYieldQuality(pool, apy.rewardShare).score,
      protocolMeta: meta,
      pegIndex,
      stability: stabilitySignals(pool.apyPct1D, meta?.change_1d ?? null),
      knownIssues: prior?.knownIssues ?? [],
      compositeCap: compositeCapOf(pool.outlier === true, depeg.score),
    };
    entries.push(entry);
    byId.set(pool.pool, entry);
  }
  return { entries, byId, protocols, priors: input.priors, pegsAvailable: pegIndex !== null, protocolsAvailable: input.protocols !== null };
}

export interface EntryDetails {
  readonly depeg: DepegAssessment;
  readonly liquidity: LiquidityResult;
  readonly yieldQuality: FactorResult;
}

/** Full factor rationales for one entry (same inputs, same scores as the universe build). */
export function explainEntry(entry: UniverseEntry): EntryDetails {
  return {
    depeg: assessDepegCounterparty(entry.tokens, entry.pegIndex, entry.category === 'rwa'),
    liquidity: scoreLiquidity(entry.pool, entry.protocolMeta, entry.category === 'lending'),
    yieldQuality: scoreYieldQuality(entry.pool, entry.apy.rewardShare),
  };
}
