import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../../../shared/log.ts';
import type { ToolContext } from '../../../../shared/mcp/tool.ts';
import type { ResearchConfig } from '../config.ts';
import { ResearchError } from '../errors.ts';
import { freshnessMeta, type SourceStamp } from '../domain/freshness.ts';
import type { ProtocolPriors } from '../domain/protocol-priors.ts';
import type { MarketData, MarketRead } from '../market/market-data.ts';
import { failureEnvelope } from './envelope.ts';

/** What every research tool handler is given. */
export interface ResearchRuntime {
  readonly config: ResearchConfig;
  readonly market: MarketData;
  readonly priors: ProtocolPriors;
  readonly logger: Logger;
  readonly now: () => Date;
}

/** Runs a handler and maps a thrown ResearchError to the failure envelope; anything else is INTERNAL_ERROR with a generic message. */
export async function guarded(rt: ResearchRuntime, ctx: ToolContext, tool: string, fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ResearchError) return failureEnvelope(ctx.requestId, err.code, err.message, rt.now());
    rt.logger.error({ err, tool, requestId: ctx.requestId }, 'research tool failed');
    return failureEnvelope(ctx.requestId, 'INTERNAL_ERROR', `The tool failed unexpectedly (request ${ctx.requestId}).`, rt.now());
  }
}

export function stampsOf(read: MarketRead): SourceStamp[] {
  const stamps: SourceStamp[] = [{ source: 'defillama:yields', asOf: read.yields.asOf, lastSuccessAt: read.yields.fetchedAt }];
  if (read.pegs) stamps.push({ source: 'defillama:pegs', asOf: read.pegs.asOf, lastSuccessAt: read.pegs.fetchedAt });
  else stamps.push({ source: 'defillama:pegs', asOf: null, lastSuccessAt: null });
  if (read.protocols) stamps.push({ source: 'defillama:protocols', asOf: read.protocols.asOf, lastSuccessAt: read.protocols.fetchedAt });
  return stamps;
}

/** Envelope meta for a market-data answer: freshness ages on yields + pegs only (seed). */
export function marketMeta(rt: ResearchRuntime, read: MarketRead, ageSources: readonly string[] = ['defillama:yields', 'defillama:pegs']) {
  const stamps = stampsOf(read);
  const f = freshnessMeta(stamps, ageSources, rt.now(), { warnSeconds: rt.config.staleWarnSeconds, degradeSeconds: rt.config.staleDegradeSeconds });
  return {
    degraded: read.degraded || f.degraded,
    warnings: [...read.warnings, ...f.warnings],
    sources: [...stamps.filter((s) => s.lastSuccessAt).map((s) => s.source), `curated:${rt.priors.version}`],
    lastRefreshedAt: f.lastRefreshedAt,
    dataAgeSeconds: f.dataAgeSeconds,
    sourcesFreshness: f.sourcesFreshness,
  };
}
