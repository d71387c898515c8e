import { z } from 'zod';
import { defineTool } from '../../../../shared/mcp/tool.ts';
import { materializeOpportunity, type Opportunity } from '../domain/opportunity.ts';
import { FACTOR_IDS, SCORING_VERSION } from '../domain/weights.ts';
import { ResearchError } from '../errors.ts';
import { envelopeOutputSchema, successEnvelope } from './envelope.ts';
import { CompareInput, withAliasGroup } from './input-schemas.ts';
import { guarded, marketMeta, type ResearchRuntime } from './research-runtime.ts';
import { findEntry, scoreContextOf } from './score-opportunity.ts';

function rationaleOf(winner: Opportunity, runnerUp: Opportunity): string {
  const leads = FACTOR_IDS.map((id) => [id, winner.scores[id] - runnerUp.scores[id]] as const)
    .filter(([, d]) => d >= 1)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([id, d]) => `${id} +${d.toFixed(1)}`);
  const apyW = winner.apy.net ?? winner.apy.total ?? 0;
  const apyR = runnerUp.apy.net ?? runnerUp.apy.total ?? 0;
  const apyNote = apyR > apyW ? ` ${runnerUp.protocolName} pays ${(apyR - apyW).toFixed(2)} pp more APY but carries more risk on the factors above.` : '';
  return `${winner.protocolName} ${winner.symbol} on ${winner.chainName} wins on composite risk-adjusted score (${winner.scores.compositeRiskAdjusted} vs ${runnerUp.scores.compositeRiskAdjusted})${leads.length ? `, leading on ${leads.join(', ')}` : ''}.${apyNote}`;
}

export function createCompareOpportunitiesTool(rt: ResearchRuntime) {
  return defineTool({
    name: 'compare_opportunities',
    title: 'Compare 2–5 opportunities',
    description: 'Compare 2–5 opportunities (list_yields ids as poolIds or opportunityIds); returns them ranked by composite risk-adjusted score with a winner and rationale. No ranking knobs.',
    inputSchema: CompareInput,
    inputJsonSchema: withAliasGroup(CompareInput, ['poolIds', 'opportunityIds']),
    outputSchema: envelopeOutputSchema(z.looseObject({ winner: z.looseObject({ id: z.string() }), ranked: z.array(z.looseObject({ id: z.string() })), rationale: z.string() })),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    handler: (args, ctx) =>
      guarded(rt, ctx, 'compare_opportunities', async () => {
        const ids = (args.poolIds ?? args.opportunityIds)!.map((i) => i.trim());
        const dup = ids.find((id, i) => ids.indexOf(id) !== i);
        if (dup) throw new ResearchError('VALIDATION_ERROR', `poolIds contains ${JSON.stringify(dup)} twice; compare distinct opportunities`);
        const read = await rt.market.readMarket();
        const sc = scoreContextOf(args);
        const ops = ids.map((id) => materializeOpportunity(findEntry(read, id), sc, { includeFactors: true }));
        const ranked = [...ops].sort((a, b) => b.scores.compositeRiskAdjusted - a.scores.compositeRiskAdjusted || (a.id < b.id ? -1 : 1));
        const base = marketMeta(rt, read);
        return successEnvelope(
          ctx.requestId,
          { winner: ranked[0], ranked: ranked.map((o, i) => ({ rank: i + 1, ...o })), rationale: rationaleOf(ranked[0], ranked[1]), ranking: 'compositeRiskAdjusted' },
          { ...base, warnings: [...base.warnings, ...ops.flatMap((o) => o.warnings.map((w) => `${o.id}: ${w}`))], scoringVersion: SCORING_VERSION },
          rt.now(),
        );
      }),
  });
}
