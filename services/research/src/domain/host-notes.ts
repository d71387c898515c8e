import type { Opportunity } from './opportunity.ts';
import type { SortBy } from './list-yields-pipeline.ts';

/** Always present on list_yields success (exact key `meta.scoreLegend`). */
export const SCORE_LEGEND =
  'Score is a 0–100 risk-adjusted rating (higher = lower estimated risk for the yield), blending protocol, depeg/counterparty, liquidity, yield-quality and cost factors. It is not an APY and not a safety guarantee.';

export interface NextStep {
  readonly tool: string;
  readonly hint: string;
  readonly argsHint?: Record<string, unknown>;
}

/** 3–5 follow-ups with real ids from the answer, so a host can offer them without another discovery pass. */
export function suggestNextSteps(ops: readonly Opportunity[], applied: { horizonDays: number; notionalUsd: number; chains: readonly string[] }): NextStep[] {
  if (ops.length === 0) {
    return [
      { tool: 'list_yields', hint: 'Relax the filters (drop minScore or maxRewardShare, lower minTvlUsd) to see a shortlist', argsHint: { chains: applied.chains } },
      { tool: 'list_yields', hint: 'Run the default risk-adjusted research list', argsHint: {} },
      { tool: 'health', hint: 'Check data freshness and sources' },
    ];
  }
  const [first, second] = ops;
  const steps: NextStep[] = [{ tool: 'explain_score', hint: `Explain why ${first.protocolName} ${first.symbol} on ${first.chainName} ranks #1`, argsHint: { id: first.id } }];
  if (second) steps.push({ tool: 'compare_opportunities', hint: `Compare #1 and #2 side by side`, argsHint: { poolIds: [first.id, second.id] } });
  steps.push({ tool: 'get_protocol_risk', hint: `Protocol risk card for ${first.protocolName}`, argsHint: { protocol: first.protocolSlug } });
  steps.push({ tool: 'score_opportunity', hint: 'Full factor breakdown for your own size and horizon', argsHint: { id: first.id, horizonDays: applied.horizonDays, notionalUsd: applied.notionalUsd } });
  steps.push({ tool: 'list_yields', hint: 'Stricter treasury-style shortlist (conservative, minScore 85, no RWA)', argsHint: { chains: applied.chains, riskAppetite: 'conservative', minScore: 85, excludeCategories: ['rwa'] } });
  return steps;
}

const pct = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)}%`);

/** A 1–2 sentence lead-in naming the real #1; worded after the sort key. Undefined (omitted) when empty. */
export function humanLeadIn(ops: readonly Opportunity[], sortBy: SortBy, sortOrder: 'asc' | 'desc'): string | undefined {
  const top = ops[0];
  if (!top) return undefined;
  const what = `${top.protocolName} ${top.symbol} on ${top.chainName}`;
  const order = sortOrder === 'asc' ? 'lowest' : 'highest';
  const lead: Record<SortBy, string> = {
    risk_adjusted: `${sortOrder === 'asc' ? 'Lowest' : 'Top'} by risk-adjusted score: ${what} (score ${top.scores.compositeRiskAdjusted}, ${pct(top.apy.net ?? top.apy.total)} ${top.apy.net !== null ? 'net' : 'gross'} APY).`,
    net_apy: `The ${order} net APY in this shortlist: ${what} at ${pct(top.apy.net)} (risk-adjusted score ${top.scores.compositeRiskAdjusted}).`,
    gross_apy: `The ${order} gross APY in this shortlist: ${what} at ${pct(top.apy.total)} (risk-adjusted score ${top.scores.compositeRiskAdjusted}).`,
    tvl: `The ${sortOrder === 'asc' ? 'smallest' : 'deepest'} pool in this shortlist: ${what} with $${Math.round(top.tvlUsd ?? 0).toLocaleString('en-US')} TVL (risk-adjusted score ${top.scores.compositeRiskAdjusted}).`,
  };
  return `${lead[sortBy]} Research only — not a recommendation to act.`;
}

/** The APY used for contrast: net if present, else gross. */
function contrastApy(o: Opportunity): number | null {
  return o.apy.net ?? o.apy.total;
}

export const RANK_CONTRAST_MIN_GAP_PP = 0.25;
const CONTRAST_WINDOW = 5;

/**
 * One sentence when a nearby row out-yields #1 but ranks lower: prefer #2, else the highest-APY
 * row in the top 5 (never the whole list's max-APY farm). Omitted when #1 already leads APY in
 * that window or the gap is < 0.25 pp. The reason comes from existing fields only.
 */
export function rankContrastNote(ops: readonly Opportunity[]): string | undefined {
  const top = ops[0];
  if (!top || ops.length < 2) return undefined;
  const topApy = contrastApy(top);
  if (topApy === null) return undefined;
  const window = ops.slice(1, CONTRAST_WINDOW);
  const gapOf = (o: Opportunity) => {
    const a = contrastApy(o);
    return a === null ? -Infinity : a - topApy;
  };
  let pick: Opportunity | undefined;
  let rank = 0;
  if (gapOf(ops[1]) >= RANK_CONTRAST_MIN_GAP_PP) {
    pick = ops[1];
    rank = 2;
  } else {
    let best = -Infinity;
    window.forEach((o, i) => {
      const g = gapOf(o);
      if (g > best) {
        best = g;
        pick = o;
        rank = i + 2;
      }
    });
    if (best < RANK_CONTRAST_MIN_GAP_PP) return undefined;
  }
  const c = pick!;
  const usesNet = c.apy.net !== null && top.apy.net !== null;
  const reasons: [string, number][] = [];
  const liqGap = top.scores.liquidity - c.scores.liquidity;
  if (liqGap >= 5) reasons.push(['thinner liquidity', liqGap]);
  const shareGap = ((c.apy.rewardShare ?? 0) - (top.apy.rewardShare ?? 0)) * 100;
  if (shareGap >= 10) reasons.push(['more of its APY from incentives', shareGap]);
  const protoGap = top.scores.protocolRisk - c.scores.protocolRisk;
  if (protoGap >= 5) reasons.push(['higher protocol risk', protoGap]);
  if (!usesNet && c.apy.net !== null && top.apy.net !== null && c.apy.net < top.apy.net) reasons.push(['lower net APY after gas', 100]);
  reasons.sort((a, b) => b[1] - a[1]);
  const reason = reasons[0]?.[0] ?? 'combined risk factors';
  const label = usesNet ? 'net APY' : 'APY';
  return `${c.protocolName} on ${c.chainName} (#${rank}) pays a higher ${label} (${pct(contrastApy(c))} vs ${pct(topApy)}) than #1 ${top.protocolName} on ${top.chainName} but ranks lower because of ${reason}.`;
}
