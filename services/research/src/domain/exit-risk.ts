import type { LiquidityConfidence } from './liquidity.ts';

export type ExitRisk = 'low' | 'medium' | 'high' | 'unknown';

export interface ExitRiskResult {
  readonly exitRisk: ExitRisk;
  readonly exitRiskReason: string;
  readonly warnings: readonly string[];
}

/** `low` needs TVL ≥ 50× the position (seed ExitRisk v1); under 10× the position is `high` (DefiLlama: > 10 % of a pool moves the rate). */
const LOW_MULTIPLE = 50;
const HIGH_MULTIPLE = 10;

/** Words in curated knownIssues that mean TVL says nothing about whether *you* may exit. */
const TRANSFER_CONSTRAINT = /transfer|eligib|redemption|redeem|permission|whitelist|kyc|qualified/i;
export const TRANSFER_RESTRICTION_WARNING = 'exitRisk is liquidity-only; protocol notes transfer/eligibility restrictions';

/**
 * ExitRisk v1: a size-vs-pool friction heuristic from three inputs only — pool TVL, liquidity
 * confidence, notionalUsd. Missing or invalid inputs are `unknown`, never `low`.
 */
export function assessExitRisk(tvlUsd: number | null, confidence: LiquidityConfidence | null, notionalUsd: number, knownIssues: readonly string[]): ExitRiskResult {
  let exitRisk: ExitRisk;
  let exitRiskReason: string;
  if (tvlUsd === null || !Number.isFinite(tvlUsd) || tvlUsd <= 0 || confidence === null || !(notionalUsd > 0)) {
    exitRisk = 'unknown';
    exitRiskReason = tvlUsd === null || !(tvlUsd > 0) ? 'pool TVL missing or invalid' : confidence === null ? 'liquidity confidence unknown' : 'notionalUsd invalid';
  } else {
    const multiple = tvlUsd / notionalUsd;
    const m = multiple >= 1000 ? `${Math.round(multiple).toLocaleString('en-US')}×` : `${multiple.toFixed(1)}×`;
    if (multiple < HIGH_MULTIPLE) {
      exitRisk = 'high';
      exitRiskReason = `position is ${(100 / multiple).toFixed(1)}% of pool TVL (TVL only ${m} notional)`;
    } else if (confidence === 'low') {
      exitRisk = multiple >= LOW_MULTIPLE ? 'medium' : 'high';
      exitRiskReason = `low liquidity confidence (lock/cooldown or thin pool); TVL ${m} notional`;
    } else if (confidence === 'high' && multiple >= LOW_MULTIPLE) {
      exitRisk = 'low';
      exitRiskReason = `high liquidity confidence and TVL ${m} notional`;
    } else if (confidence === 'medium') {
      exitRisk = 'medium';
      exitRiskReason = `medium liquidity confidence even though TVL is ${m} notional`;
    } else {
      exitRisk = 'medium';
      exitRiskReason = `TVL ${m} notional is below the ${LOW_MULTIPLE}× needed for low`;
    }
  }
  const warnings: string[] = [];
  if (exitRisk === 'high' || exitRisk === 'unknown') warnings.push(`exitRisk ${exitRisk} (liquidity heuristic): ${exitRiskReason}`);
  else if (knownIssues.some((k) => TRANSFER_CONSTRAINT.test(k))) warnings.push(TRANSFER_RESTRICTION_WARNING);
  return { exitRisk, exitRiskReason, warnings };
}
