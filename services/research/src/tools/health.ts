import { z } from 'zod';
import { defineTool } from '../../../../shared/mcp/tool.ts';
import { GATEHOUSE_VERSION } from '../../../../shared/version.ts';
import { SCORING_VERSION } from '../domain/weights.ts';
import { envelopeOutputSchema, successEnvelope } from './envelope.ts';
import { HealthInput } from './input-schemas.ts';
import type { ResearchRuntime } from './research-runtime.ts';

export const RESEARCH_TOOL_NAMES = ['health', 'list_yields', 'score_opportunity', 'compare_opportunities', 'explain_score', 'get_protocol_risk'] as const;

export interface HealthReporter {
  report(): Promise<Record<string, unknown>>;
  readonly idleMarketRefreshesTotal: number;
}

/**
 * Shared by GET /health and the MCP `health` tool. When market vintage (oldest yields + pegs
 * asOf) is missing or at/over the degrade threshold, it refreshes through the same cache path
 * as list_yields — once per call, honouring TTL and revalidation spacing — unless the kill
 * switch is on. lastSuccess (last fetch/serve ok) and dataVintage (snapshot asOf) stay apart.
 */
export function createHealthReporter(rt: ResearchRuntime): HealthReporter {
  let idleMarketRefreshesTotal = 0;
  return {
    get idleMarketRefreshesTotal() {
      return idleMarketRefreshesTotal;
    },
    async report() {
      const vintage = await rt.market.marketVintage().catch(() => null);
      const now = rt.now();
      const stale = vintage === null || now.getTime() - vintage.getTime() >= rt.config.staleDegradeSeconds * 1000;
      if (stale && !rt.config.upstreamDisabled) {
        idleMarketRefreshesTotal++;
        await rt.market.readMarket().catch(() => undefined);
      }
      const sources = rt.market.status();
      const after = await rt.market.marketVintage().catch(() => null);
      const hasYields = sources[0].records > 0;
      return {
        status: hasYields && !sources.some((s) => s.failing) ? 'healthy' : 'degraded',
        service: 'research',
        version: GATEHOUSE_VERSION,
        scoringVersion: SCORING_VERSION,
        priorsVersion: rt.priors.version,
        tools: [...RESEARCH_TOOL_NAMES],
        featureFlags: {
          upstreamFetchesEnabled: !rt.config.upstreamDisabled,
          killSwitch: rt.config.upstreamDisabled,
          softDiversityDefault: true,
          includeFactorsDefault: false,
          writePath: false,
        },
        dataSources: sources,
        marketVintage: after?.toISOString() ?? null,
        marketDataAgeSeconds: after ? Math.floor((now.getTime() - after.getTime()) / 1000) : null,
        thresholds: { staleWarnSeconds: rt.config.staleWarnSeconds, staleDegradeSeconds: rt.config.staleDegradeSeconds },
        metrics: { idleMarketRefreshesTotal },
      };
    },
  };
}

export function createResearchHealthTool(rt: ResearchRuntime, reporter: HealthReporter) {
  return defineTool({
    name: 'health',
    title: 'Research server health',
    description: 'Liveness, feature flags, scoring version, tool list and data sources (lastSuccess vs dataVintage). Takes no arguments.',
    inputSchema: HealthInput,
    inputJsonSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: envelopeOutputSchema(z.looseObject({ status: z.string(), tools: z.array(z.string()) })),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    handler: async (_args, ctx) => {
      const data = await reporter.report();
      const sources = data.dataSources as { source: string; lastFetchedAt: string | null; dataVintage: string | null }[];
      return successEnvelope(
        ctx.requestId,
        data,
        {
          degraded: data.status !== 'healthy',
          warnings: [],
          sources: sources.filter((s) => s.lastFetchedAt).map((s) => s.source),
          lastRefreshedAt: (data.marketVintage as string | null) ?? null,
          dataAgeSeconds: (data.marketDataAgeSeconds as number | null) ?? null,
          sourcesFreshness: sources.map((s) => ({ source: s.source, lastSuccessAt: s.lastFetchedAt, asOf: s.dataVintage })),
        },
        rt.now(),
      );
    },
  });
}
