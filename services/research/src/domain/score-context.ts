import type { ChainKey } from './chains.ts';
import type { RiskAppetite } from './weights.ts';

/** The request-dependent inputs of a score: position size, horizon, where the funds start, appetite. */
export interface ScoreContext {
  readonly horizonDays: number;
  readonly notionalUsd: number;
  readonly sourceChain: ChainKey | null;
  readonly appetite: RiskAppetite;
}

export const DEFAULT_HORIZON_DAYS = 30;
export const DEFAULT_NOTIONAL_USD = 10_000;
