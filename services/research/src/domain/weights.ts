/** The five factor ids, in the order every payload lists them. */
export const FACTOR_IDS = ['protocolRisk', 'depegCounterparty', 'liquidity', 'yieldQuality', 'costAdjusted'] as const;
export type FactorId = (typeof FACTOR_IDS)[number];
export type FactorScores = Readonly<Record<FactorId, number>>;

export const RISK_APPETITES = ['conservative', 'balanced', 'aggressive'] as const;
export type RiskAppetite = (typeof RISK_APPETITES)[number];

export const SCORING_VERSION = 'v2.1';

/**
 * Composite weights per appetite. `balanced` is the v1.1 default blend; the others move weight
 * between safety (protocol, peg) and return (cost-adjusted net yield) without touching factors.
 */
export const APPETITE_WEIGHTS: Readonly<Record<RiskAppetite, FactorScores>> = {
  conservative: { protocolRisk: 0.35, depegCounterparty: 0.3, liquidity: 0.2, yieldQuality: 0.1, costAdjusted: 0.05 },
  balanced: { protocolRisk: 0.3, depegCounterparty: 0.25, liquidity: 0.2, yieldQuality: 0.15, costAdjusted: 0.1 },
  aggressive: { protocolRisk: 0.2, depegCounterparty: 0.15, liquidity: 0.15, yieldQuality: 0.2, costAdjusted: 0.3 },
};

export function compositeScore(factors: FactorScores, appetite: RiskAppetite): number {
  const w = APPETITE_WEIGHTS[appetite];
  let sum = 0;
  for (const id of FACTOR_IDS) sum += w[id] * factors[id];
  return round1(sum);
}

export function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
