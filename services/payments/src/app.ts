import { createServiceGuard } from '../../../shared/auth/create-service-guard.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { LIVE_CHAIN_ID, TEST_CHAIN_ID } from '../../../shared/config.ts';
import { createHealthTool } from '../../../shared/mcp/health-tool.ts';
import { createMcpServiceApp } from '../../../shared/mcp/mcp-service-app.ts';
import { createToolServer } from '../../../shared/mcp/tool-server.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { GATEHOUSE_VERSION } from '../../../shared/version.ts';

export type ChainMode = 'test' | 'live';

/** The payments-proposal MCP server; one codebase, two hosts: the URL is the chain. */
export async function createPaymentsService({ config, logger }: ServiceDeps, mode: ChainMode): Promise<BuiltService> {
  const serviceName = mode === 'test' ? 'payments-test' : 'payments-live';
  const chainId = mode === 'test' ? TEST_CHAIN_ID : LIVE_CHAIN_ID;
  const endpoint = config.services[serviceName];
  const toolServer = createToolServer({
    name: `gatehouse-${serviceName}`,
    version: GATEHOUSE_VERSION,
    tools: [createHealthTool(serviceName, GATEHOUSE_VERSION)],
    logger,
  });
  const app = createMcpServiceApp({
    config,
    endpoint,
    guard: createServiceGuard(config, endpoint, chainId),
    toolServer,
    logger,
    resourceName: `Gatehouse payments (${mode === 'test' ? 'TEST chain 153' : 'LIVE chain 151'})`,
    scopesSupported: RESOURCE_SCOPES[serviceName],
  });
  return { app, close: () => toolServer.close() };
}
