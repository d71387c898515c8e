export type StabilityConfidence = 'high' | 'medium' | 'low';

export interface StabilitySignals {
  /** Pool-level `apyPct1D` in percentage points; null = not provided (≠ 0, which is an observed flat day). */
  readonly apyChange24h: number | null;
  /** Protocol-level `change_1d` (%) — shared by every market of the protocol, not this pool's flow. */
  readonly tvlChange24hPct: number | null;
  readonly stabilityConfidence: StabilityConfidence;
  readonly warnings: readonly string[];
}

/** |apyChange24h| at or above this many pp earns a warning only; ranking is unchanged. */
export const LARGE_APY_MOVE_PP = 5;

export function stabilitySignals(apyPct1D: number | null, protocolChange1d: number | null): StabilitySignals {
  const present = (apyPct1D !== null ? 1 : 0) + (protocolChange1d !== null ? 1 : 0);
  const warnings: string[] = [];
  if (apyPct1D !== null && Math.abs(apyPct1D) >= LARGE_APY_MOVE_PP) {
    warnings.push(`APY moved ${apyPct1D > 0 ? '+' : ''}${apyPct1D.toFixed(2)} pp in ~24h (≥ ${LARGE_APY_MOVE_PP} pp); ranking unchanged`);
  }
  return {
    apyChange24h: apyPct1D,
    tvlChange24hPct: protocolChange1d === null ? null : Math.round(protocolChange1d * 100) / 100,
    stabilityConfidence: present === 2 ? 'high' : present === 1 ? 'medium' : 'low',
    warnings,
  };
}
