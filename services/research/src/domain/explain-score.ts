import type { Opportunity } from './opportunity.ts';
import { FACTOR_IDS, type FactorId } from './weights.ts';

/** One-line glosses so a human reading the bullets knows which way each number points. */
const GLOSS: Record<FactorId, { label: string; gloss: string }> = {
  protocolRisk: { label: 'Protocol risk', gloss: 'audits, age, TVL and incident history; higher = safer protocol' },
  depegCounterparty: { label: 'Depeg / counterparty', gloss: 'price and peg mechanism of every coin held; higher = steadier peg' },
  liquidity: { label: 'Liquidity', gloss: 'pool depth and withdrawal constraints; higher = easier to exit' },
  yieldQuality: { label: 'Yield quality', gloss: 'organic vs incentive yield, APY stability, outlier flags; higher = more durable' },
  costAdjusted: { label: 'Cost-adjusted', gloss: 'net APY after gas/bridge over your horizon; higher = more yield kept' },
};

export interface ScoreNarrative {
  readonly summary: string;
  readonly bullets: readonly string[];
}

/** The human narrative of `explain_score`; the structured factors travel beside it unchanged. */
export function explainScore(o: Opportunity): ScoreNarrative {
  const ranked = FACTOR_IDS.map((id) => [id, o.scores[id]] as const).sort((a, b) => b[1] - a[1]);
  const [best, worst] = [ranked[0], ranked[ranked.length - 1]];
  const apy = o.apy.net ?? o.apy.total;
  const summary =
    `${o.protocolName} ${o.symbol} on ${o.chainName} scores ${o.scores.compositeRiskAdjusted}/100 on the risk-adjusted scale ` +
    `(strongest: ${GLOSS[best[0]].label.toLowerCase()} ${best[1]}; weakest: ${GLOSS[worst[0]].label.toLowerCase()} ${worst[1]}). ` +
    `${apy === null ? 'APY unknown' : `About ${apy.toFixed(2)}% ${o.apy.net !== null ? 'net' : 'gross'} APY`}; exit risk ${o.exitRisk} (${o.exitRiskReason}). ` +
    'The score is a research rating, not an APY and not a safety guarantee.';
  const factors = (o as { factors?: { id: FactorId; rationale: readonly string[] }[] }).factors ?? [];
  const bullets = FACTOR_IDS.map((id) => {
    const why = factors.find((f) => f.id === id)?.rationale.slice(0, 3).join('; ');
    return `${GLOSS[id].label} ${o.scores[id]} — ${GLOSS[id].gloss}${why ? `. ${why}` : ''}`;
  });
  if (o.apy.rewardShare === null) bullets.push('Reward share unknown — incentives could be any part of the APY.');
  else if (o.apy.rewardShare > 0) bullets.push(`${Math.round(o.apy.rewardShare * 100)}% of the APY comes from incentives, which can stop.`);
  if (o.apyChange24h === null) bullets.push('24h APY change not provided by the source (unknown, not zero).');
  for (const w of o.warnings) bullets.push(`Warning: ${w}`);
  return { summary, bullets };
}
