import { z } from 'zod';
import { defineTool } from '../../../../shared/mcp/tool.ts';
import { explainScore } from '../domain/explain-score.ts';
import { materializeOpportunity } from '../domain/opportunity.ts';
import { SCORING_VERSION } from '../domain/weights.ts';
import { envelopeOutputSchema, successEnvelope } from './envelope.ts';
import { OpportunityRefInput, opportunityIdOf, withAliasGroup } from './input-schemas.ts';
import { guarded, marketMeta, type ResearchRuntime } from './research-runtime.ts';
import { findEntry, scoreContextOf } from './score-opportunity.ts';

export function createExplainScoreTool(rt: ResearchRuntime) {
  return defineTool({
    name: 'explain_score',
    title: 'Explain a score in plain language',
    description: 'Human-readable narrative (summary + bullets with short glosses) plus the unchanged structured factors[] and scores. Same id aliases as score_opportunity: id | opportunityId | poolId.',
    inputSchema: OpportunityRefInput,
    inputJsonSchema: withAliasGroup(OpportunityRefInput, ['id', 'opportunityId', 'poolId']),
    outputSchema: envelopeOutputSchema(z.looseObject({ summary: z.string(), bullets: z.array(z.string()), factors: z.array(z.looseObject({ id: z.string(), score: z.number() })) })),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    handler: (args, ctx) =>
      guarded(rt, ctx, 'explain_score', async () => {
        const read = await rt.market.readMarket();
        const entry = findEntry(read, opportunityIdOf(args));
        const o = materializeOpportunity(entry, scoreContextOf(args), { includeFactors: true, includeFactorDetails: true });
        const narrative = explainScore(o);
        const base = marketMeta(rt, read);
        return successEnvelope(
          ctx.requestId,
          { id: o.id, ...narrative, scores: o.scores, factors: o.factors ?? [], opportunity: o },
          { ...base, warnings: [...base.warnings, ...o.warnings], scoringVersion: SCORING_VERSION },
          rt.now(),
        );
      }),
  });
}
