import type { SourceName } from './market-snapshot.ts';

export interface SourceStamp {
  readonly source: SourceName | 'curated:protocol-priors';
  /** Data vintage. */
  readonly asOf: Date | null;
  /** When the snapshot was obtained (fetch or import). */
  readonly lastSuccessAt: Date | null;
}

export interface FreshnessMeta {
  readonly lastRefreshedAt: string | null;
  readonly dataAgeSeconds: number | null;
  readonly sourcesFreshness: { source: string; lastSuccessAt: string | null; asOf: string | null; ageSeconds: number | null }[];
  readonly warnings: string[];
  readonly degraded: boolean;
}

export interface StalePolicy {
  readonly warnSeconds: number;
  readonly degradeSeconds: number;
}

const minutes = (s: number) => `${Math.round(s / 60)} minutes`;

/**
 * Seed "Data freshness": age is measured on the market-data vintage (yields + pegs) only —
 * protocol-meta is listed but never pushes the age over consumer gates — except for
 * get_protocol_risk, whose payload *is* protocol-meta (`ageSources`). Any missing stamp among
 * the age sources makes the age null, and a null age invents no warning.
 */
export function freshnessMeta(stamps: readonly SourceStamp[], ageSources: readonly string[], now: Date, policy: StalePolicy): FreshnessMeta {
  const used = stamps.filter((s) => ageSources.includes(s.source));
  const known = used.map((s) => s.asOf).filter((d): d is Date => d !== null);
  const complete = used.length > 0 && known.length === used.length;
  const oldest = complete ? Math.min(...known.map((d) => d.getTime())) : null;
  const newest = known.length ? Math.max(...known.map((d) => d.getTime())) : null;
  const dataAgeSeconds = oldest === null ? null : Math.max(0, Math.floor((now.getTime() - oldest) / 1000));
  const warnings: string[] = [];
  let degraded = false;
  if (dataAgeSeconds !== null) {
    if (dataAgeSeconds >= policy.warnSeconds) warnings.push(`Data age ${minutes(dataAgeSeconds)} exceeds warn threshold (${minutes(policy.warnSeconds)})`);
    if (dataAgeSeconds >= policy.degradeSeconds) {
      degraded = true;
      warnings.push(`Data age ${minutes(dataAgeSeconds)} exceeds degrade threshold (${minutes(policy.degradeSeconds)}); results are degraded`);
    }
  }
  return {
    lastRefreshedAt: newest === null ? null : new Date(newest).toISOString(),
    dataAgeSeconds,
    sourcesFreshness: stamps.map((s) => ({
      source: s.source,
      lastSuccessAt: s.lastSuccessAt?.toISOString() ?? null,
      asOf: s.asOf?.toISOString() ?? null,
      ageSeconds: s.asOf ? Math.max(0, Math.floor((now.getTime() - s.asOf.getTime()) / 1000)) : null,
    })),
    warnings,
    degraded,
  };
}
