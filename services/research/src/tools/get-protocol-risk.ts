import { z } from 'zod';
import { defineTool } from '../../../../shared/mcp/tool.ts';
import { normalizeCategory } from '../domain/category.ts';
import { scoreProtocolRisk } from '../domain/protocol-risk.ts';
import { SCORING_VERSION } from '../domain/weights.ts';
import { ResearchError } from '../errors.ts';
import { envelopeOutputSchema, successEnvelope } from './envelope.ts';
import { ProtocolRefInput, withAliasGroup } from './input-schemas.ts';
import { guarded, marketMeta, type ResearchRuntime } from './research-runtime.ts';

export function createGetProtocolRiskTool(rt: ResearchRuntime) {
  return defineTool({
    name: 'get_protocol_risk',
    title: 'Protocol risk card',
    description: 'Protocol risk card by DefiLlama/curated slug. Pass list_yields opportunities[].protocolSlug as protocol or protocolSlug.',
    inputSchema: ProtocolRefInput,
    inputJsonSchema: withAliasGroup(ProtocolRefInput, ['protocol', 'protocolSlug']),
    outputSchema: envelopeOutputSchema(z.looseObject({ protocolSlug: z.string(), protocolRisk: z.looseObject({ score: z.number() }) })),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    handler: (args, ctx) =>
      guarded(rt, ctx, 'get_protocol_risk', async () => {
        const slug = (args.protocol ?? args.protocolSlug)!.trim().toLowerCase();
        const read = await rt.market.readMarket();
        const meta = read.universe.protocols.get(slug);
        const prior = rt.priors.get(slug);
        const markets = read.universe.entriesOf(slug);
        if (!meta && !prior && markets.length === 0) throw new ResearchError('NOT_FOUND', `Unknown protocol slug ${JSON.stringify(slug)} (use list_yields opportunities[].protocolSlug)`);
        const risk = scoreProtocolRisk(meta, prior, rt.now());
        // Pendle lists LP and PT rows per market with the same TVL: count distinct (chain, TVL) once.
        const distinct = new Map(markets.map((e) => [`${e.chain}:${e.pool.tvlUsd}`, e.pool.tvlUsd ?? 0]));
        const categoryRaw = meta?.category ?? null;
        const base = marketMeta(rt, read, ['defillama:protocols']);
        return successEnvelope(
          ctx.requestId,
          {
            protocolSlug: slug,
            name: meta?.name ?? prior?.name ?? slug,
            category: normalizeCategory({ project: slug, symbol: '', poolMeta: null, categoryRaw, override: prior?.categoryOverride }),
            categoryRaw,
            protocolRisk: { score: Math.round(risk.score * 10) / 10, rationale: risk.rationale },
            audits: prior?.audits ?? (meta?.audits != null ? Number.parseInt(meta.audits, 10) : null),
            launchedAt: prior?.launchedAt ?? (meta?.listedAt ? new Date(meta.listedAt * 1000).toISOString() : null),
            tvlUsd: meta?.tvl ?? null,
            tvlChange24hPct: meta?.change_1d ?? null,
            tvlChange7dPct: meta?.change_7d ?? null,
            incidents: prior?.incidents ?? [],
            knownIssues: prior?.knownIssues ?? [],
            url: meta?.url ?? null,
            inScopeMarkets: { count: markets.length, chains: [...new Set(markets.map((e) => e.chain))], dedupedTvlUsd: [...distinct.values()].reduce((a, b) => a + b, 0) },
            curated: prior !== undefined,
            priorsVersion: rt.priors.version,
          },
          { ...base, warnings: [...base.warnings, ...(meta ? [] : ['No DefiLlama protocol metadata for this slug; card uses curated priors and pool data only'])], scoringVersion: SCORING_VERSION },
          rt.now(),
        );
      }),
  });
}
