import { createServiceGuard } from '../../../shared/auth/create-service-guard.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { createHealthTool } from '../../../shared/mcp/health-tool.ts';
import { createMcpServiceApp } from '../../../shared/mcp/mcp-service-app.ts';
import { createToolServer } from '../../../shared/mcp/tool-server.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { GATEHOUSE_VERSION } from '../../../shared/version.ts';

/** The gateway MCP server. */
export async function createGatewayService({ config, logger }: ServiceDeps): Promise<BuiltService> {
  const endpoint = config.services.gateway;
  const toolServer = createToolServer({
    name: 'gatehouse-gateway',
    version: GATEHOUSE_VERSION,
    tools: [createHealthTool('gateway', GATEHOUSE_VERSION)],
    logger,
  });
  const app = createMcpServiceApp({
    config,
    endpoint,
    guard: createServiceGuard(config, endpoint, null),
    toolServer,
    logger,
    resourceName: 'Gatehouse gateway',
    scopesSupported: RESOURCE_SCOPES.gateway,
  });
  return { app, close: () => toolServer.close() };
}
