import { z } from 'zod';
import { defineTool } from '../../../../shared/mcp/tool.ts';
import { resolveSourceChainKey } from '../domain/chains.ts';
import type { UniverseEntry } from '../domain/market-universe.ts';
import { materializeOpportunity } from '../domain/opportunity.ts';
import { DEFAULT_HORIZON_DAYS, DEFAULT_NOTIONAL_USD, type ScoreContext } from '../domain/score-context.ts';
import { APPETITE_WEIGHTS, SCORING_VERSION } from '../domain/weights.ts';
import { ResearchError } from '../errors.ts';
import type { MarketRead } from '../market/market-data.ts';
import { envelopeOutputSchema, successEnvelope } from './envelope.ts';
import { OpportunityRefInput, opportunityIdOf, withAliasGroup } from './input-schemas.ts';
import { guarded, marketMeta, type ResearchRuntime } from './research-runtime.ts';

export function scoreContextOf(args: { horizonDays?: number; notionalUsd?: number; sourceChainKey?: string }): ScoreContext {
  return {
    horizonDays: args.horizonDays ?? DEFAULT_HORIZON_DAYS,
    notionalUsd: args.notionalUsd ?? DEFAULT_NOTIONAL_USD,
    sourceChain: args.sourceChainKey !== undefined ? resolveSourceChainKey(args.sourceChainKey) : null,
    appetite: 'balanced',
  };
}

export function findEntry(read: MarketRead, id: string): UniverseEntry {
  const entry = read.universe.byId.get(id);
  if (!entry) throw new ResearchError('NOT_FOUND', `No in-scope stablecoin opportunity with id ${JSON.stringify(id)} (use list_yields opportunities[].id; v1 covers Ethereum, Base, Arbitrum)`);
  return entry;
}

export function createScoreOpportunityTool(rt: ResearchRuntime) {
  return defineTool({
    name: 'score_opportunity',
    title: 'Score one opportunity',
    description: 'Full multi-factor score for one opportunity. Pass list_yields opportunities[].id as id, opportunityId or poolId (aliases), plus optional horizonDays, notionalUsd, sourceChainKey.',
    inputSchema: OpportunityRefInput,
    inputJsonSchema: withAliasGroup(OpportunityRefInput, ['id', 'opportunityId', 'poolId']),
    outputSchema: envelopeOutputSchema(z.looseObject({ opportunity: z.looseObject({ id: z.string() }) })),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    handler: (args, ctx) =>
      guarded(rt, ctx, 'score_opportunity', async () => {
        const read = await rt.market.readMarket();
        const entry = findEntry(read, opportunityIdOf(args));
        const sc = scoreContextOf(args);
        const opportunity = materializeOpportunity(entry, sc, { includeFactors: true, includeFactorDetails: true });
        const base = marketMeta(rt, read);
        return successEnvelope(
          ctx.requestId,
          { opportunity },
          { ...base, warnings: [...base.warnings, ...opportunity.warnings], scoringVersion: SCORING_VERSION, riskAppetite: sc.appetite, weights: APPETITE_WEIGHTS[sc.appetite], horizonDays: sc.horizonDays, notionalUsd: sc.notionalUsd, sourceChainKey: sc.sourceChain },
          rt.now(),
        );
      }),
  });
}
