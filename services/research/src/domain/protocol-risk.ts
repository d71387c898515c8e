import type { ProtocolRecord } from './market-snapshot.ts';
import type { ProtocolPrior } from './protocol-priors.ts';

export interface FactorResult {
  readonly score: number;
  readonly rationale: readonly string[];
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/**
 * protocolRisk (higher = safer): base 55, + audits (0/6/10/12 for 0/1/2/≥3), + age (4 per year,
 * ≤ 15), + protocol TVL (≥ $1B 10, ≥ $100M 6, ≥ $10M 2), − incidents (15 if < 1 year old, 8
 * otherwise, ≤ 30), + curated adjustment, clamp 0–97 (nothing is risk-free). Unknown protocols
 * (neither DefiLlama meta nor priors) get a flat 45.
 */
export function scoreProtocolRisk(meta: ProtocolRecord | undefined, prior: ProtocolPrior | undefined, now: Date): FactorResult {
  if (!meta && !prior) return { score: 45, rationale: ['Unknown protocol: no DefiLlama metadata and no curated prior'] };
  const rationale: string[] = [];
  let score = 55;
  const audits = prior?.audits ?? (meta?.audits !== null && meta?.audits !== undefined ? Number.parseInt(meta.audits, 10) || 0 : 0);
  const auditPoints = audits >= 3 ? 12 : audits === 2 ? 10 : audits === 1 ? 6 : 0;
  score += auditPoints;
  rationale.push(`${audits} audit${audits === 1 ? '' : 's'} (+${auditPoints})`);
  const launched = prior?.launchedAt ? Date.parse(prior.launchedAt) : meta?.listedAt ? meta.listedAt * 1000 : NaN;
  if (!Number.isNaN(launched)) {
    const years = Math.max(0, (now.getTime() - launched) / YEAR_MS);
    const agePoints = Math.min(15, years * 4);
    score += agePoints;
    rationale.push(`${years.toFixed(1)} years live (+${agePoints.toFixed(1)})`);
  } else rationale.push('launch date unknown (+0)');
  const tvl = meta?.tvl ?? null;
  if (tvl !== null) {
    const tvlPoints = tvl >= 1e9 ? 10 : tvl >= 1e8 ? 6 : tvl >= 1e7 ? 2 : 0;
    score += tvlPoints;
    rationale.push(`protocol TVL $${compactUsd(tvl)} (+${tvlPoints})`);
  }
  let incidentPoints = 0;
  for (const inc of prior?.incidents ?? []) {
    const ageMs = now.getTime() - Date.parse(inc.date);
    incidentPoints += ageMs < YEAR_MS ? 15 : 8;
    rationale.push(`incident ${inc.date}: ${inc.summary}`);
  }
  incidentPoints = Math.min(30, incidentPoints);
  if (incidentPoints) rationale.push(`incident history (−${incidentPoints})`);
  score -= incidentPoints;
  if (meta?.rugged) {
    score = Math.min(score, 10);
    rationale.push('flagged rugged by DefiLlama');
  }
  if (prior?.scoreAdjustment) {
    score += prior.scoreAdjustment;
    rationale.push(`curated adjustment (${prior.scoreAdjustment > 0 ? '+' : ''}${prior.scoreAdjustment})`);
  }
  return { score: clamp(score, 0, 97), rationale };
}

export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

export function compactUsd(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${(v / 1e9).toFixed(2)}B`;
  if (a >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(1)}k`;
  return v.toFixed(0);
}
