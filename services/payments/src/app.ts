import express from 'express';
import { createRemoteJWKSet } from 'jose';
import { createServiceGuard } from '../../../shared/auth/create-service-guard.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { createOboVerifier } from '../../../shared/auth/verify-obo-token.ts';
import { createMcpServiceApp } from '../../../shared/mcp/mcp-service-app.ts';
import { codedErrorResult } from '../../../shared/mcp/tool-result.ts';
import { createToolServer } from '../../../shared/mcp/tool-server.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { GATEHOUSE_VERSION } from '../../../shared/version.ts';
import { loadPaymentsConfig, type PaymentsConfig } from './config.ts';
import { chainIdOf, type ChainMode } from './domain/chain.ts';
import { apiIntentsRouter } from './routes/api-intents-routes.ts';
import { internalRouter } from './routes/internal-routes.ts';
import { createPaymentsTools } from './tools/catalog.ts';
import { createSettlementWaiters } from './worker/settlement-waiters.ts';
import { createSettlementWorker, type SettlementWorker } from './worker/settlement-worker.ts';

export type { ChainMode };

export interface PaymentsService extends BuiltService {
  readonly worker: SettlementWorker;
}

export interface PaymentsServiceOptions {
  /** Defaults to parsing the process environment once, at boot. */
  readonly paymentsConfig?: PaymentsConfig;
  readonly now?: () => Date;
}

/** The payments-proposal MCP server; one codebase, two hosts: the URL is the chain. */
export async function createPaymentsService(
  { config, db, logger, env }: ServiceDeps,
  mode: ChainMode,
  options: PaymentsServiceOptions = {},
): Promise<PaymentsService> {
  const serviceName = mode === 'test' ? 'payments-test' : 'payments-live';
  const chainId = chainIdOf(mode);
  const endpoint = config.services[serviceName];
  const paymentsConfig = options.paymentsConfig ?? loadPaymentsConfig(env ? { ...env } : undefined);
  const now = options.now ?? (() => new Date());
  const appUrl = config.services.auth.publicUrl;
  const waiters = createSettlementWaiters(db);
  const worker = createSettlementWorker({ handle: db, config: paymentsConfig, logger, now });
  const guard = createServiceGuard(config, endpoint, chainId);

  const toolServer = createToolServer({
    name: `gatehouse-${serviceName}`,
    version: GATEHOUSE_VERSION,
    instructions: `Payments on the ${mode === 'test' ? 'TEST chain 153' : 'LIVE chain 151'}. Read freely; money moves only through propose_* → the account holder confirms at confirm_url → settlement. Nothing you hold can confirm.`,
    tools: createPaymentsTools({ handle: db, chainId, mode, appUrl, authPublicUrl: config.issuer, config: paymentsConfig, waiters, logger, now }),
    logger,
    // The URL is the chain: a session bound to the other chain is refused on every call,
    // before arguments are even parsed, so it cannot read or propose across chains.
    beforeCall: (session) =>
      session.chainId && session.chainId !== chainId
        ? codedErrorResult('CHAIN_MODE_MISMATCH', `This host serves chain ${chainId} but the session is bound to chain ${session.chainId}; route the credential to the matching payments host.`, {
            host_chain_id: chainId,
            session_chain_id: session.chainId,
          })
        : undefined,
  });

  const jwksUrl = new URL(`${config.authInternalUrl}/.well-known/jwks.json`);
  const jwks = createRemoteJWKSet(jwksUrl, { timeoutDuration: config.authTimeoutMs, cooldownDuration: 30_000 });
  const extraRoutes = express.Router();
  extraRoutes.use(
    internalRouter({
      handle: db,
      chainId,
      appUrl,
      logger,
      now,
      verifyOboToken: createOboVerifier({ issuer: config.issuer, resource: endpoint.resource, jwks }),
    }),
  );
  extraRoutes.use(apiIntentsRouter({ handle: db, appUrl, now, guard, jwks, issuer: config.issuer, resource: endpoint.resource }));

  const app = createMcpServiceApp({
    config,
    endpoint,
    guard,
    toolServer,
    logger,
    resourceName: `Gatehouse payments (${mode === 'test' ? 'TEST chain 153' : 'LIVE chain 151'})`,
    scopesSupported: RESOURCE_SCOPES[serviceName],
    extraRoutes,
    health: () => ({ chain_id: chainId, chain_mode: mode }),
  });
  return {
    app,
    worker,
    async start() {
      await waiters.start();
      if (paymentsConfig.workerEnabled) await worker.start();
    },
    async close() {
      await worker.stop();
      await waiters.close();
      await toolServer.close();
    },
  };
}
