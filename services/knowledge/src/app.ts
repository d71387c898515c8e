import { createServiceGuard } from '../../../shared/auth/create-service-guard.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { createHealthTool } from '../../../shared/mcp/health-tool.ts';
import { createMcpServiceApp } from '../../../shared/mcp/mcp-service-app.ts';
import { createToolServer } from '../../../shared/mcp/tool-server.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { GATEHOUSE_VERSION } from '../../../shared/version.ts';

/** The knowledge MCP server. */
export async function createKnowledgeService({ config, logger }: ServiceDeps): Promise<BuiltService> {
  const endpoint = config.services.knowledge;
  const toolServer = createToolServer({
    name: 'gatehouse-knowledge',
    version: GATEHOUSE_VERSION,
    tools: [createHealthTool('knowledge', GATEHOUSE_VERSION)],
    logger,
  });
  const app = createMcpServiceApp({
    config,
    endpoint,
    guard: createServiceGuard(config, endpoint, null),
    toolServer,
    logger,
    resourceName: 'Gatehouse knowledge',
    scopesSupported: RESOURCE_SCOPES.knowledge,
  });
  return { app, close: () => toolServer.close() };
}
