export interface ApyBreakdown {
  readonly base: number | null;
  readonly reward: number | null;
  readonly total: number | null;
  /** reward / total; null when unknowable (never an invented 0). */
  readonly rewardShare: number | null;
}

/** Below this a "total" is noise (DefiLlama rounds to 5 decimals), so a share of it means nothing. */
const MEANINGFUL_TOTAL_PCT = 0.001;

/**
 * Seed "Reward share": share = reward/total when total is meaningful; both ~0 ⇒ 0; a positive
 * reward on a ~0 gross (or no reward figure beside a positive base-less total) is pathological ⇒ null.
 */
export function apyBreakdown(apyBase: number | null, apyReward: number | null, apy: number | null): ApyBreakdown {
  const total = apy ?? (apyBase !== null || apyReward !== null ? (apyBase ?? 0) + (apyReward ?? 0) : null);
  let rewardShare: number | null;
  if (total === null) rewardShare = null;
  else if (Math.abs(total) < MEANINGFUL_TOTAL_PCT) {
    rewardShare = (apyReward ?? 0) < MEANINGFUL_TOTAL_PCT ? 0 : null;
  } else if (apyReward !== null) {
    rewardShare = clamp01(apyReward / total);
  } else if (apyBase !== null) {
    // No reward figure but a base that explains the total: organic yield, share 0.
    rewardShare = Math.abs(apyBase - total) < MEANINGFUL_TOTAL_PCT ? 0 : null;
  } else rewardShare = null;
  return { base: apyBase, reward: apyReward, total, rewardShare: rewardShare === null ? null : round(rewardShare, 4) };
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
