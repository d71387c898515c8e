import { createServiceGuard } from '../../../shared/auth/create-service-guard.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import type { Session } from '../../../shared/auth/session.ts';
import { createMcpServiceApp } from '../../../shared/mcp/mcp-service-app.ts';
import { createToolServer } from '../../../shared/mcp/tool-server.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { GATEHOUSE_VERSION } from '../../../shared/version.ts';
import { loadResearchConfig, type ResearchConfig } from './config.ts';
import { loadProtocolPriors, type ProtocolPriors } from './domain/protocol-priors.ts';
import { MarketData } from './market/market-data.ts';
import { createSnapshotStore } from './store/snapshot-store.ts';
import { createCompareOpportunitiesTool } from './tools/compare-opportunities.ts';
import { validationFailure } from './tools/validation-failure.ts';
import { createExplainScoreTool } from './tools/explain-score.ts';
import { createGetProtocolRiskTool } from './tools/get-protocol-risk.ts';
import { createHealthReporter, createResearchHealthTool } from './tools/health.ts';
import { createListYieldsTool } from './tools/list-yields.ts';
import type { ResearchRuntime } from './tools/research-runtime.ts';
import { createScoreOpportunityTool } from './tools/score-opportunity.ts';
import { createDefillamaClient } from './upstream/defillama-client.ts';

export interface ResearchServiceOptions extends ServiceDeps {
  /** The research env (DEFILLAMA_*, CACHE_TTL_*, YH_*); parsed here so misconfiguration fails at boot. */
  readonly researchConfig?: ResearchConfig;
  readonly fetch?: typeof fetch;
  readonly now?: () => Date;
  readonly priors?: ProtocolPriors;
  /** Tests and benchmarks only: admit every /mcp request as this session. */
  readonly dangerouslyDisableGuard?: Session;
}

export interface ResearchService extends BuiltService {
  readonly runtime: ResearchRuntime;
}

/** The yield research MCP server (seed 000). No tool has a write path: only caches change. */
export async function createResearchService(deps: ServiceDeps): Promise<BuiltService> {
  return buildResearchService(deps);
}

export async function buildResearchService(options: ResearchServiceOptions): Promise<ResearchService> {
  const { config, db, logger } = options;
  const endpoint = config.services.research;
  const researchConfig = options.researchConfig ?? loadResearchConfig(options.env ? { ...options.env } : undefined);
  const now = options.now ?? (() => new Date());
  const priors = options.priors ?? loadProtocolPriors();
  const client = createDefillamaClient({
    yieldsUrl: researchConfig.yieldsUrl,
    stablecoinsUrl: researchConfig.stablecoinsUrl,
    apiUrl: researchConfig.apiUrl,
    timeoutMs: researchConfig.upstreamTimeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    now,
  });
  const market = new MarketData({ config: researchConfig, client, store: createSnapshotStore(db), priors, logger, now });
  const runtime: ResearchRuntime = { config: researchConfig, market, priors, logger, now };
  const reporter = createHealthReporter(runtime);
  const toolServer = createToolServer({
    name: 'gatehouse-research',
    version: GATEHOUSE_VERSION,
    instructions: 'Risk-adjusted stablecoin yield research on Ethereum, Base and Arbitrum. Chain ids from list_yields opportunities[].id into score_opportunity / explain_score / compare_opportunities, and protocolSlug into get_protocol_risk. Research only; never executes transactions.',
    tools: [
      createResearchHealthTool(runtime, reporter),
      createListYieldsTool(runtime),
      createScoreOpportunityTool(runtime),
      createCompareOpportunitiesTool(runtime),
      createExplainScoreTool(runtime),
      createGetProtocolRiskTool(runtime),
    ],
    invalidArgumentsResult: validationFailure,
    logger,
  });
  const app = createMcpServiceApp({
    config,
    endpoint,
    guard: createServiceGuard(config, endpoint, null),
    toolServer,
    logger,
    resourceName: 'Gatehouse yield research',
    scopesSupported: RESOURCE_SCOPES.research,
    // The shell owns `status: ok` (liveness); the research view of data health is `researchStatus`.
    health: async () => {
      const { status, ...rest } = await reporter.report();
      return { researchStatus: status, ...rest };
    },
    ...(options.dangerouslyDisableGuard ? { dangerouslyDisableGuard: options.dangerouslyDisableGuard } : {}),
  });
  return { app, runtime, close: () => toolServer.close() };
}
