import express from 'express';
import { createServiceGuard } from '../../../shared/auth/create-service-guard.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { createOboVerifier } from '../../../shared/auth/verify-obo-token.ts';
import { createMcpServiceApp } from '../../../shared/mcp/mcp-service-app.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { loadGatewayConfig, type GatewayConfig } from './config.ts';
import { createGatewayHandlers } from './mcp/gateway-handlers.ts';
import { createGatewayToolServer } from './mcp/gateway-tool-server.ts';
import { createCallerView } from './registry/caller-view.ts';
import { GatewayRegistry } from './registry/gateway-registry.ts';
import { directEndpointRouter } from './routes/direct-endpoint-routes.ts';
import { internalRouter } from './routes/internal-routes.ts';
import { toolExportRouter } from './routes/tool-export-route.ts';
import { createCallRouter } from './routing/route-call.ts';
import { createReceiptSigner } from './routing/receipt-signer.ts';
import { createReceiptWriter, type ReceiptWriter } from './routing/receipt-writer.ts';
import { ResultCache } from './routing/result-cache.ts';
import { openReceiptDb } from './store/receipt-store.ts';
import { ensureReceiptSigningKey } from './store/signing-key-store.ts';
import { recordTaint } from './store/taint-store.ts';
import { seedUpstream } from './store/upstream-store.ts';
import { createStatefulRouter } from './tools/invoke-stateful-tool.ts';
import { createValidateTaskResult } from './tools/validate-task-result.ts';
import { createOboTokenSource } from './upstream/obo-token-source.ts';

export interface GatewayService extends BuiltService {
  readonly registry: GatewayRegistry;
  readonly gatewayConfig: GatewayConfig;
  readonly receipts: ReceiptWriter;
}

const INSTRUCTIONS = `Gatehouse gateway. Start from the user's intent: call search_tools (or read gateway://toolsets), pick the best toolset and tool, call get_tool_schema, then invoke_tool for reads or invoke_stateful_tool for anything that changes state (the account holder approves those). Copy each result's _gateway block into your task record and finish with validate_task_result. Report provider, source recency (observed_at is when the gateway first saw the answer, not upstream freshness), runtime_state and cache use.`;

/** The gateway MCP server (DESIGN §6; seeds 003 and 004). */
export async function createGatewayService({ config, db, logger, env }: ServiceDeps, options: { gatewayConfig?: GatewayConfig } = {}): Promise<GatewayService> {
  const gatewayConfig = options.gatewayConfig ?? loadGatewayConfig(config, env ? { ...env } : undefined);
  const endpoint = config.services.gateway;
  for (const upstream of gatewayConfig.seedUpstreams) await seedUpstream(db, upstream);

  const oboTokens = createOboTokenSource({ authInternalUrl: config.authInternalUrl, timeoutMs: config.authTimeoutMs });
  const registry = new GatewayRegistry({
    db,
    logger,
    oboTokens,
    upstreamSecrets: gatewayConfig.upstreamSecrets,
    refreshIntervalMs: gatewayConfig.refreshIntervalMs,
    catalogPollMs: gatewayConfig.catalogPollMs,
  });
  await registry.reload();

  const signer = await createReceiptSigner(await ensureReceiptSigningKey(db));
  const receiptDb = await openReceiptDb(config, db, gatewayConfig.receiptFlush);
  const receipts = createReceiptWriter({ db: receiptDb, signer, flush: gatewayConfig.receiptFlush, logger });
  const cache = new ResultCache(gatewayConfig.cacheMaxEntries);
  const view = createCallerView({ db, registry, defaultAccess: gatewayConfig.defaultAccess });
  const routeCall = createCallRouter({
    registry,
    cache,
    receipts,
    firewallMode: gatewayConfig.firewallMode,
    logger,
    taint: (subject, taskId, reason) => recordTaint(db, subject, taskId, reason),
  });
  const stateful = createStatefulRouter({
    db,
    view,
    routeCall,
    approvalTtlSeconds: gatewayConfig.approvalTtlSeconds,
    confirmUrl: (id) => `${config.issuer}/approvals/${id}`,
  });
  const handlers = createGatewayHandlers({ registry, view, routeCall, stateful, validate: createValidateTaskResult({ db, signer, receipts }) });
  const toolServer = createGatewayToolServer({ handlers, logger, instructions: INSTRUCTIONS });
  const guard = createServiceGuard(config, endpoint, null);

  const extraRoutes = express.Router();
  extraRoutes.get('/.well-known/gateway-receipts-jwks.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json({ keys: [signer.publicJwk] });
  });
  extraRoutes.use(directEndpointRouter({ guard, logger, maxBodyBytes: config.maxBodyBytes, viewFor: (scope) => toolServer.view(scope) }));
  extraRoutes.use(toolExportRouter({ guard, logger, view }));
  extraRoutes.use(
    internalRouter({
      config,
      db,
      registry,
      verifyOboToken: createOboVerifier({ issuer: config.issuer, resource: endpoint.resource, jwksUrl: `${config.authInternalUrl}/.well-known/jwks.json`, timeoutMs: config.authTimeoutMs }),
      adminSubjects: gatewayConfig.adminSubjects,
    }),
  );

  const app = createMcpServiceApp({
    config,
    endpoint,
    guard,
    toolServer: toolServer.view(undefined),
    logger,
    resourceName: 'Gatehouse gateway',
    scopesSupported: RESOURCE_SCOPES.gateway,
    extraRoutes,
    health: () => ({
      upstreams: Object.fromEntries([...registry.catalog().upstreams.keys()].map((n) => [n, registry.health(n)])),
      tools: registry.catalog().tools.length,
      quarantined: registry.catalog().quarantinedCount,
      // GATEWAY_RECEIPT_FLUSH, and what it means right now (on Postgres it depends on other replicas).
      receipts: { flush: gatewayConfig.receiptFlush, commits: receipts.commits },
    }),
  });
  return {
    app,
    registry,
    gatewayConfig,
    receipts,
    start: () => registry.start(),
    // Receipts last: answers already given must reach the database before the caller of close()
    // closes it (services/main.ts and the test stack close `db` right after this).
    close: async () => {
      await registry.close();
      await toolServer.close();
      await receipts.close();
      if (receiptDb !== db) await receiptDb.close();
    },
  };
}
