import { clamp, type FactorResult } from './protocol-risk.ts';

export interface CostInputs {
  readonly grossApyPct: number | null;
  readonly notionalUsd: number;
  readonly horizonDays: number;
  readonly gasRoundTripUsd: number;
  readonly bridgeRoundTripUsd: number;
}

export interface CostResult extends FactorResult {
  /** APY after amortising entry/exit (and bridge) costs over the horizon; null when gross is unknown. */
  readonly netApyPct: number | null;
  readonly costUsd: number;
}

/**
 * costAdjusted (higher = more of the yield is kept, and there is more of it):
 * ½ · efficiency + ½ · level, where efficiency = 100 · (1 − cost / expected yield over the
 * horizon) and level = 100 · (1 − e^(−netApy / 5)). The level half is what lets `aggressive`
 * (which weights this factor most) prefer higher net yields.
 */
export interface CostNumbers {
  readonly score: number;
  readonly netApyPct: number | null;
  readonly costUsd: number;
}

/** The numbers only: this runs once per candidate on every list_yields call, so it builds no strings. */
export function costNumbers(input: CostInputs): CostNumbers {
  const costUsd = input.gasRoundTripUsd + input.bridgeRoundTripUsd;
  if (input.grossApyPct === null) return { score: 0, netApyPct: null, costUsd };
  const years = input.horizonDays / 365;
  const expectedYieldUsd = input.notionalUsd * (input.grossApyPct / 100) * years;
  const costPct = (costUsd / input.notionalUsd / years) * 100;
  const netApyPct = input.grossApyPct - costPct;
  const efficiency = expectedYieldUsd > 0 ? clamp(100 * (1 - costUsd / expectedYieldUsd), 0, 100) : 0;
  const level = netApyPct > 0 ? 100 * (1 - Math.exp(-netApyPct / 5)) : 0;
  return { score: clamp(0.5 * efficiency + 0.5 * level, 0, 100), netApyPct: Math.round(netApyPct * 1e4) / 1e4, costUsd: Math.round(costUsd * 100) / 100 };
}

export function scoreCostAdjusted(input: CostInputs): CostResult {
  const n = costNumbers(input);
  if (n.netApyPct === null || input.grossApyPct === null) return { ...n, rationale: ['APY unknown'] };
  const costUsd = input.gasRoundTripUsd + input.bridgeRoundTripUsd;
  const netApyPct = n.netApyPct;
  const rationale = [
    `round-trip costs ≈ $${costUsd.toFixed(2)}${input.bridgeRoundTripUsd ? ` incl. bridge $${input.bridgeRoundTripUsd.toFixed(2)}` : ''} on $${input.notionalUsd} over ${input.horizonDays}d`,
    `net APY ≈ ${netApyPct.toFixed(2)}% (gross ${input.grossApyPct.toFixed(2)}%)`,
  ];
  return { ...n, rationale };
}
