import type { PoolRecord } from './market-snapshot.ts';
import { clamp, type FactorResult } from './protocol-risk.ts';

/**
 * yieldQuality (higher = more organic and steadier): 95, − 35 × rewardShare (− 10 when the share
 * is unknown), − 2 per pp of |apyPct7D| (≤ 15), − 3 × sigma (≤ 15), − 25 for DefiLlama's
 * outlier flag, − 3/6/10 for a "Down" prediction at confidence 1/2/3, − 8 when APY is > 1.5× its
 * 30-day mean, − 15 above 25 % APY and − 30 above 50 %, capped at 40 when APY is 0.
 */
export function scoreYieldQuality(pool: PoolRecord, rewardShare: number | null): FactorResult {
  const rationale: string[] = [];
  let score = 95;
  if (rewardShare === null) {
    score -= 10;
    rationale.push('reward share unknown (−10)');
  } else if (rewardShare > 0) {
    score -= 35 * rewardShare;
    rationale.push(`${(rewardShare * 100).toFixed(0)}% of APY from incentives (−${(35 * rewardShare).toFixed(1)})`);
  } else rationale.push('organic (base) yield only');
  if (pool.apyPct7D !== null) {
    const p = Math.min(15, 2 * Math.abs(pool.apyPct7D));
    if (p >= 0.5) rationale.push(`APY moved ${pool.apyPct7D.toFixed(2)} pp over 7d (−${p.toFixed(1)})`);
    score -= p;
  }
  if (pool.sigma !== null && pool.sigma > 0) {
    const p = Math.min(15, 3 * pool.sigma);
    if (p >= 0.5) rationale.push(`return volatility σ ${pool.sigma.toFixed(2)} (−${p.toFixed(1)})`);
    score -= p;
  }
  if (pool.outlier) {
    score -= 25;
    rationale.push('DefiLlama flags this pool as a statistical outlier (−25)');
  }
  const pred = pool.predictions;
  if (pred?.predictedClass === 'Down') {
    const p = pred.binnedConfidence === 3 ? 10 : pred.binnedConfidence === 2 ? 6 : 3;
    score -= p;
    rationale.push(`DefiLlama predicts APY down (confidence ${pred.binnedConfidence ?? '?'}) (−${p})`);
  }
  const apy = pool.apy ?? 0;
  if (pool.apyMean30d !== null && pool.apyMean30d > 0 && apy > 1.5 * pool.apyMean30d) {
    score -= 8;
    rationale.push(`APY ${apy.toFixed(2)}% is a spike over its 30d mean ${pool.apyMean30d.toFixed(2)}% (−8)`);
  }
  if (apy > 50) {
    score -= 30;
    rationale.push('APY above 50% is rarely sustainable for stablecoins (−30)');
  } else if (apy > 25) {
    score -= 15;
    rationale.push('APY above 25% is rarely sustainable for stablecoins (−15)');
  }
  if (apy <= 0) {
    score = Math.min(score, 40);
    rationale.push('no yield (APY 0)');
  }
  return { score: clamp(score, 0, 100), rationale };
}
