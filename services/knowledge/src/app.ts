import type { Session } from '../../../shared/auth/session.ts';
import { createServiceGuard } from '../../../shared/auth/create-service-guard.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { createMcpServiceApp } from '../../../shared/mcp/mcp-service-app.ts';
import { createToolServer, describeZodError } from '../../../shared/mcp/tool-server.ts';
import { codedErrorResult } from '../../../shared/mcp/tool-result.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { GATEHOUSE_VERSION } from '../../../shared/version.ts';
import { loadKnowledgeConfig, type KnowledgeConfig } from './config.ts';
import { createCursorCodec } from './domain/cursor.ts';
import { CODED_ERROR_TOOLS, plainErrorResult } from './errors.ts';
import { startIndexingSweeper } from './ingest/indexing-sweeper.ts';
import { uploadRoutes } from './routes/upload-routes.ts';
import { createKnowledgeStore } from './store/knowledge-store.ts';
import { createAskTool } from './tools/ask.ts';
import { createCountInSetTool } from './tools/count-in-set.ts';
import { createCountTool } from './tools/count.ts';
import { createDealGetTool } from './tools/deal-get.ts';
import { createDealListTool } from './tools/deal-list.ts';
import { createEntitiesTool } from './tools/entities.ts';
import { createEnumerateTool } from './tools/enumerate.ts';
import { createExploreTool } from './tools/explore.ts';
import { createFetchTool } from './tools/fetch.ts';
import { createFilesTool } from './tools/files.ts';
import { createFreezeSetTool } from './tools/freeze-set.ts';
import { createGetSetTool } from './tools/get-set.ts';
import { createGraphsTool } from './tools/graphs.ts';
import { createIntentStatusTool } from './tools/intent-status.ts';
import { createRoomsTool } from './tools/rooms.ts';
import { createSearchTool } from './tools/search.ts';
import { createSetStatusTool } from './tools/set-status.ts';
import { createSetsTool } from './tools/sets.ts';
import type { KnowledgeToolDeps } from './tools/tool-deps.ts';

export interface KnowledgeServiceOptions {
  /** Defaults to the KNOWLEDGE_* environment, read once at boot by config.ts. */
  readonly knowledge?: KnowledgeConfig;
  readonly fetch?: typeof fetch;
  readonly authenticateUploader?: (bearer: string) => Promise<string | undefined>;
  /** Tests and benchmarks only: admit every MCP request as this session. */
  readonly dangerouslyDisableGuard?: Session;
}

/** The eighteen tools, in catalog order: ranked, exhaustive, sets, reads of the graph, deals. */
export function createKnowledgeTools(deps: KnowledgeToolDeps) {
  return [
    createSearchTool(deps),
    createAskTool(deps),
    createCountTool(deps),
    createEnumerateTool(deps),
    createFreezeSetTool(deps),
    createSetStatusTool(deps),
    createGetSetTool(deps),
    createSetsTool(deps),
    createCountInSetTool(deps),
    createFetchTool(deps),
    createFilesTool(deps),
    createGraphsTool(deps),
    createEntitiesTool(deps),
    createExploreTool(deps),
    createRoomsTool(deps),
    createDealListTool(deps),
    createDealGetTool(deps),
    createIntentStatusTool(deps),
  ];
}

/** The knowledge MCP server. */
export async function createKnowledgeService({ config, db, logger, env }: ServiceDeps, options: KnowledgeServiceOptions = {}): Promise<BuiltService> {
  const endpoint = config.services.knowledge;
  const knowledge = options.knowledge ?? loadKnowledgeConfig(env ? { ...env } : undefined);
  const store = createKnowledgeStore(db);
  const background = new Set<Promise<unknown>>();
  const deps: KnowledgeToolDeps = {
    config,
    knowledge,
    store,
    cursors: createCursorCodec(knowledge.cursorSecret),
    logger,
    fetch: options.fetch ?? globalThis.fetch,
    background,
  };
  const toolServer = createToolServer({
    name: 'gatehouse-knowledge',
    version: GATEHOUSE_VERSION,
    instructions:
      'Ranked tools (search, ask) return the best matches and never a total. Exhaustive tools (count, enumerate, count_in_set) return totals over a stated scope and can establish absence; freeze a set to keep such a claim checkable.',
    tools: createKnowledgeTools(deps),
    logger,
    invalidArgumentsResult: (tool, error) =>
      CODED_ERROR_TOOLS.has(tool) ? codedErrorResult('invalid_arguments', describeZodError(error)) : plainErrorResult(`Invalid arguments: ${describeZodError(error)}`),
  });
  const app = createMcpServiceApp({
    config,
    endpoint,
    guard: createServiceGuard(config, endpoint, null),
    toolServer,
    logger,
    resourceName: 'Gatehouse knowledge',
    scopesSupported: RESOURCE_SCOPES.knowledge,
    extraRoutes: uploadRoutes({ config, knowledge, store, logger, background, ...(options.authenticateUploader ? { authenticateUploader: options.authenticateUploader } : {}) }),
    ...(options.dangerouslyDisableGuard ? { dangerouslyDisableGuard: options.dangerouslyDisableGuard } : {}),
  });
  const sweeper = startIndexingSweeper({ store, logger, timeoutSeconds: knowledge.indexingTimeoutSeconds, intervalMs: knowledge.indexingSweepIntervalMs });
  return {
    app,
    async close() {
      await sweeper.stop();
      // Let running freezes finish their one statement before the database closes under them.
      await Promise.allSettled([...background]);
      await toolServer.close();
    },
  };
}
