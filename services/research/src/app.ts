import { createServiceGuard } from '../../../shared/auth/create-service-guard.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { createHealthTool } from '../../../shared/mcp/health-tool.ts';
import { createMcpServiceApp } from '../../../shared/mcp/mcp-service-app.ts';
import { createToolServer } from '../../../shared/mcp/tool-server.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { GATEHOUSE_VERSION } from '../../../shared/version.ts';

/** The yield research MCP server. */
export async function createResearchService({ config, logger }: ServiceDeps): Promise<BuiltService> {
  const endpoint = config.services.research;
  const toolServer = createToolServer({
    name: 'gatehouse-research',
    version: GATEHOUSE_VERSION,
    tools: [createHealthTool('research', GATEHOUSE_VERSION)],
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
  });
  return { app, close: () => toolServer.close() };
}
