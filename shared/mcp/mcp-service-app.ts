import express, { type Express } from 'express';
import type { Guard } from '../auth/guard.ts';
import type { Session } from '../auth/session.ts';
import { protectedResourceMetadataRouter } from '../auth/protected-resource-metadata.ts';
import type { Config, ServiceEndpoint } from '../config.ts';
import { dnsRebindingProtection } from '../http/dns-rebinding.ts';
import { jsonErrorHandler, jsonNotFound } from '../http/json-errors.ts';
import type { Logger } from '../log.ts';
import { streamableHttpRouter } from './streamable-http.ts';
import type { ToolServer } from './tool-server.ts';

export interface McpServiceAppOptions {
  readonly config: Config;
  readonly endpoint: ServiceEndpoint;
  readonly guard: Guard;
  readonly toolServer: ToolServer;
  readonly logger: Logger;
  readonly resourceName: string;
  readonly scopesSupported: readonly string[];
  /** Extra routes mounted before the 404 (e.g. internal on-behalf-of endpoints). */
  readonly extraRoutes?: express.Router;
  readonly health?: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  readonly dangerouslyDisableGuard?: Session;
}

/**
 * The shell every MCP server shares: `/health` (no auth), RFC 9728 metadata, and the guarded
 * stateless `/mcp`, behind DNS-rebinding protection.
 */
export function createMcpServiceApp(options: McpServiceAppOptions): Express {
  const { config, endpoint, guard, toolServer, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  // A JSON-RPC answer to a POST is never revalidated, so hashing every body for an ETag is waste.
  app.set('etag', false);
  app.set('trust proxy', false);
  app.get('/health', async (_req, res) => {
    res.json({ status: 'ok', service: endpoint.name, resource: endpoint.resource, ...(await options.health?.()) });
  });
  app.use(
    protectedResourceMetadataRouter({
      resource: endpoint.resource,
      issuer: config.issuer,
      scopesSupported: options.scopesSupported,
      resourceName: options.resourceName,
    }),
  );
  app.use(
    '/mcp',
    dnsRebindingProtection({
      publicUrl: endpoint.publicUrl,
      extraHosts: config.extraAllowedHosts,
      extraOrigins: config.extraAllowedOrigins,
    }),
  );
  app.use(
    streamableHttpRouter({
      toolServer,
      guard,
      logger,
      maxBodyBytes: config.maxBodyBytes,
      ...(options.dangerouslyDisableGuard ? { dangerouslyDisableGuard: options.dangerouslyDisableGuard } : {}),
    }),
  );
  if (options.extraRoutes) app.use(options.extraRoutes);
  app.use(jsonNotFound);
  app.use(jsonErrorHandler(logger));
  return app;
}
