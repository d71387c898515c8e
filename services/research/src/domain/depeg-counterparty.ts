import type { PeggedAssetRecord } from './market-snapshot.ts';
import type { PegIndex } from './peg-index.ts';

export interface CoinPegAssessment {
  readonly token: string;
  readonly matchedSymbol: string | null;
  readonly pegMechanism: string | null;
  readonly price: number | null;
  readonly score: number;
  readonly note: string;
}

export interface DepegAssessment {
  readonly score: number;
  readonly coins: readonly CoinPegAssessment[];
  /** At least one coin is ≥ 5 % off its peg, unknown to the feed, or unpriced. */
  readonly concerns: readonly string[];
}

/** Backing quality before price: fiat/treasury-backed > over-collateralised crypto > algorithmic (S&P will not rate the last). */
const MECHANISM_BASE: Record<string, number> = { 'fiat-backed': 96, 'crypto-backed': 88, algorithmic: 62 };
const UNKNOWN_MECHANISM_BASE = 75;
const UNPRICED_CEILING = 55;
const UNKNOWN_COIN_SCORE = 50;
/** Below 0.2 % off peg is noise; beyond it each further 0.1 % costs a point, so 10 % off is zero. */
const DEVIATION_FREE = 0.002;
const POINTS_PER_UNIT_DEVIATION = 1000;
/** Accruing wrappers (USYC 1.136, USDY 1.142) trade above 1 by design; only small premia count as deviation. */
const ACCRUING_PREMIUM = 0.02;

export function assessCoin(token: string, candidates: readonly PeggedAssetRecord[]): CoinPegAssessment {
  if (candidates.length === 0) {
    return { token, matchedSymbol: null, pegMechanism: null, price: null, score: UNKNOWN_COIN_SCORE, note: `${token} is not in the stablecoins feed (peg unknown)` };
  }
  // An ambiguous symbol (two MSUSDs) is judged by its weakest candidate: we cannot tell which one the pool holds.
  let worst: CoinPegAssessment | null = null;
  for (const c of candidates) {
    const base = MECHANISM_BASE[c.pegMechanism ?? ''] ?? UNKNOWN_MECHANISM_BASE;
    let score: number;
    let note: string;
    if (c.price === null) {
      score = Math.min(base, UNPRICED_CEILING);
      note = `${c.symbol} has no market price (peg unknown)`;
    } else {
      const accruing = c.price > 1 && (c.yieldBearing || c.price - 1 > ACCRUING_PREMIUM);
      const deviation = accruing ? 0 : Math.abs(c.price - 1);
      const penalty = Math.max(0, deviation - DEVIATION_FREE) * POINTS_PER_UNIT_DEVIATION;
      score = Math.max(0, base - penalty);
      note = accruing
        ? `${c.symbol} ${c.pegMechanism ?? 'unknown mechanism'}, price ${c.price.toFixed(4)} above peg (yield-accruing)`
        : `${c.symbol} ${c.pegMechanism ?? 'unknown mechanism'}, price ${c.price.toFixed(4)} (${(deviation * 100).toFixed(2)}% off peg)`;
    }
    if (c.deprecated) score = Math.max(0, score - 20);
    const a = { token, matchedSymbol: c.symbol, pegMechanism: c.pegMechanism, price: c.price, score, note };
    if (!worst || a.score < worst.score) worst = a;
  }
  return worst!;
}

/**
 * Weakest link across every coin the pool holds, less a small charge per extra coin (each is
 * another issuer to trust). RWA pools carry issuer/legal counterparty risk on top of the peg.
 */
export function assessDepegCounterparty(tokens: readonly string[], pegs: PegIndex | null, isRwa: boolean): DepegAssessment {
  const coins = tokens.map((t) => (pegs ? assessCoin(t, pegs.resolve(t)) : { token: t, matchedSymbol: null, pegMechanism: null, price: null, score: UNKNOWN_COIN_SCORE, note: 'stablecoin prices unavailable' }));
  const distinct = new Set(coins.map((c) => c.matchedSymbol ?? c.token)).size;
  const weakest = coins.length ? Math.min(...coins.map((c) => c.score)) : UNKNOWN_COIN_SCORE;
  const score = Math.max(0, weakest - Math.min(6, 2 * Math.max(0, distinct - 1)) - (isRwa ? 4 : 0));
  const concerns: string[] = [];
  for (const c of coins) {
    if (c.matchedSymbol === null || c.price === null) concerns.push(c.note);
    else if (c.score < 60) concerns.push(`Depeg risk: ${c.note}`);
  }
  return { score, coins, concerns };
}
