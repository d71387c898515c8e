import type { PoolRecord, ProtocolRecord } from './market-snapshot.ts';
import { clamp, compactUsd, type FactorResult } from './protocol-risk.ts';

export type LiquidityConfidence = 'high' | 'medium' | 'low';

export interface LiquidityResult extends FactorResult {
  /** How far pool TVL can be read as exit liquidity; feeds exitRisk. Null when TVL is missing. */
  readonly confidence: LiquidityConfidence | null;
}

/** poolMeta words that mean TVL is not withdrawable on demand (reference §4: "7 days unstaking", "30d unlock"). */
const LOCK_HINT = /unstak|lock|cooldown|withdrawal cycle|redemption|maturity|epoch|queue/i;

/**
 * liquidity (higher = deeper): 50 + 15·log10(TVL / $1M), clamp 0–100, then − 8 for multi-asset
 * exposure or IL risk, − 10 for a lock/cooldown/maturity hint, − 5 when the protocol's TVL fell
 * > 10 % over 7 days (the v2.1 trend term). For lending, DefiLlama TVL is supply − borrow, i.e.
 * the liquidity available to withdraw, which is why TVL is the backbone of this factor.
 */
export function scoreLiquidity(pool: PoolRecord, protocol: ProtocolRecord | undefined, isLending: boolean): LiquidityResult {
  const tvl = pool.tvlUsd;
  if (tvl === null || !(tvl > 0)) return { score: 0, confidence: null, rationale: ['pool TVL missing'] };
  const rationale: string[] = [];
  let score = clamp(50 + 15 * Math.log10(tvl / 1e6), 0, 100);
  rationale.push(`pool TVL $${compactUsd(tvl)} (${score.toFixed(1)})`);
  const multi = pool.exposure === 'multi' || pool.ilRisk === 'yes';
  if (multi) {
    score -= 8;
    rationale.push('multi-asset / IL exposure (−8)');
  }
  const locked = LOCK_HINT.test(pool.poolMeta ?? '');
  if (locked) {
    score -= 10;
    rationale.push(`withdrawal constraint hinted by "${pool.poolMeta}" (−10)`);
  }
  const trend = protocol?.change_7d ?? null;
  if (trend !== null && trend < -10) {
    score -= 5;
    rationale.push(`protocol TVL ${trend.toFixed(1)}% over 7d (−5)`);
  }
  let confidence: LiquidityConfidence;
  if (locked || tvl < 1e6) confidence = 'low';
  else if (!multi && isLending && tvl >= 1e7) confidence = 'high';
  else confidence = 'medium';
  return { score: clamp(score, 0, 100), confidence, rationale };
}
