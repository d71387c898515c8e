import { z } from 'zod';
import { defineTool } from '../../../../shared/mcp/tool.ts';
import { parseChainKey, resolveSourceChainKey, SUPPORTED_CHAINS, type ChainKey } from '../domain/chains.ts';
import { humanLeadIn, rankContrastNote, SCORE_LEGEND, suggestNextSteps } from '../domain/host-notes.ts';
import { runListYields, type ListQuery } from '../domain/list-yields-pipeline.ts';
import { DEFAULT_HORIZON_DAYS, DEFAULT_NOTIONAL_USD } from '../domain/score-context.ts';
import { APPETITE_WEIGHTS, SCORING_VERSION } from '../domain/weights.ts';
import { ResearchError } from '../errors.ts';
import { envelopeOutputSchema, successEnvelope } from './envelope.ts';
import { ListYieldsInput, type ListYieldsArgs } from './input-schemas.ts';
import { guarded, marketMeta, type ResearchRuntime } from './research-runtime.ts';

export const DEFAULT_LIMIT = 10;

/** Arguments → query with the seed's defaults table applied. */
export function listQueryOf(args: ListYieldsArgs): ListQuery {
  const chainArgs = [...(args.chains ?? []), ...(args.chainIds ?? [])];
  const chains = chainArgs.length ? [...new Set(chainArgs.map((c) => parseChainKey(c)!))] : [...SUPPORTED_CHAINS];
  return {
    chains,
    assets: args.assets?.length ? args.assets.map((a) => a.trim().toUpperCase()) : null,
    minTvlUsd: args.minTvlUsd ?? 0,
    protocols: args.protocols?.length ? args.protocols.map((p) => p.trim().toLowerCase()) : null,
    limit: args.limit ?? DEFAULT_LIMIT,
    horizonDays: args.horizonDays ?? DEFAULT_HORIZON_DAYS,
    notionalUsd: args.notionalUsd ?? DEFAULT_NOTIONAL_USD,
    sourceChain: args.sourceChainKey !== undefined ? (resolveSourceChainKey(args.sourceChainKey) as ChainKey) : null,
    sortBy: args.sortBy ?? 'risk_adjusted',
    sortOrder: args.sortOrder ?? 'desc',
    riskAppetite: args.riskAppetite ?? 'balanced',
    minScore: args.minScore ?? null,
    categories: args.categories?.length ? args.categories : null,
    excludeCategories: args.excludeCategories?.length ? args.excludeCategories : null,
    diversity: args.diversity ?? 'soft',
    includeFactors: args.includeFactors ?? false,
    maxRewardShare: args.maxRewardShare ?? null,
  };
}

export function createListYieldsTool(rt: ResearchRuntime) {
  return defineTool({
    name: 'list_yields',
    title: 'Rank stablecoin yields (risk-adjusted)',
    description:
      'Rank stablecoin yields on Ethereum, Base and Arbitrum. Default = risk-adjusted ranking with balanced (v1.1) weights, not highest APY (use sortBy "net_apy" for headline yield). Pipeline: score → appetite reweight → categories → maxRewardShare → minScore → sort → soft diversity (≤2 per protocol). Research only; never executes.',
    inputSchema: ListYieldsInput,
    outputSchema: envelopeOutputSchema(z.looseObject({ opportunities: z.array(z.looseObject({ id: z.string() })), ranking: z.string() })),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    handler: (args, ctx) =>
      guarded(rt, ctx, 'list_yields', async () => {
        if (args.chains && args.chainIds && args.chains.join() !== args.chainIds.join()) {
          throw new ResearchError('VALIDATION_ERROR', `chains ${JSON.stringify(args.chains)} and chainIds ${JSON.stringify(args.chainIds)} disagree; pass one of them`);
        }
        const q = listQueryOf(args);
        const read = await rt.market.readMarket();
        const result = runListYields(read.universe, q);
        const base = marketMeta(rt, read);
        const ops = result.opportunities;
        const lead = humanLeadIn(ops, q.sortBy, q.sortOrder);
        const contrast = rankContrastNote(ops);
        const meta = {
          ...base,
          warnings: [...base.warnings, ...result.warnings],
          scoringVersion: SCORING_VERSION,
          chains: q.chains,
          sortBy: q.sortBy,
          sortOrder: q.sortOrder,
          riskAppetite: q.riskAppetite,
          weights: APPETITE_WEIGHTS[q.riskAppetite],
          minScore: q.minScore,
          categoriesApplied: q.categories ?? [],
          excludeCategoriesApplied: q.excludeCategories ?? [],
          maxRewardShare: q.maxRewardShare,
          includeFactors: q.includeFactors,
          diversity: q.diversity,
          truncatedDueToDiversity: result.truncatedDueToDiversity,
          protocolsRepresented: result.protocolsRepresented,
          horizonDays: q.horizonDays,
          notionalUsd: q.notionalUsd,
          sourceChainKey: q.sourceChain,
          limit: q.limit,
          candidatesScored: result.candidates,
          matchedAfterFilters: result.matched,
          suggestedNextSteps: suggestNextSteps(ops, { horizonDays: q.horizonDays, notionalUsd: q.notionalUsd, chains: q.chains }),
          ...(lead ? { humanLeadIn: lead } : {}),
          ...(contrast ? { rankContrastNote: contrast } : {}),
          scoreLegend: SCORE_LEGEND,
        };
        return successEnvelope(ctx.requestId, { opportunities: ops, count: ops.length, ranking: q.sortBy === 'risk_adjusted' ? 'compositeRiskAdjusted' : q.sortBy }, meta, rt.now());
      }),
  });
}
