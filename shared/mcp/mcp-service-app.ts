import { createServer, type RequestListener, type Server } from 'node:http';
import express, { type Express } from 'express';
import type { Guard } from '../auth/guard.ts';
import type { Session } from '../auth/session.ts';
import { protectedResourceMetadataRouter } from '../auth/protected-resource-metadata.ts';
import type { Config, ServiceEndpoint } from '../config.ts';
import { dnsRebindingProtection } from '../http/dns-rebinding.ts';
import { jsonErrorHandler, jsonNotFound } from '../http/json-errors.ts';
import type { Logger } from '../log.ts';
import { createStreamableHttpHandler } from './streamable-http.ts';
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

/** Each MCP service app's front door, for servers created outside `app.listen` (see requestListenerOf). */
const frontDoors = new WeakMap<Express, RequestListener>();

/**
 * The node:http request listener that serves `app` as `app.listen` would: the MCP front door for
 * apps made by `createMcpServiceApp`, the express app itself otherwise. For servers that are
 * created first and handed the app later (the test stack holds its ports before the services
 * exist), so they take the same path as production rather than express's.
 */
export function requestListenerOf(app: Express): RequestListener {
  return frontDoors.get(app) ?? app;
}

/**
 * The shell every MCP server shares: `/health` (no auth), RFC 9728 metadata, and the guarded
 * stateless `/mcp`, behind DNS-rebinding protection.
 *
 * `/mcp` is every tool call's hot path, so the app's `listen` puts a front door before express:
 * a request for exactly `/mcp` goes straight to the node:http handler (which checks Host/Origin
 * itself), everything else to express. Express also routes `/mcp` to that same handler, so an
 * app driven without `listen` (supertest) behaves identically.
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
  const hostOrigin = { publicUrl: endpoint.publicUrl, extraHosts: config.extraAllowedHosts, extraOrigins: config.extraAllowedOrigins };
  // Sub-paths (the gateway's /mcp/direct) are express routes; this covers them.
  app.use('/mcp', dnsRebindingProtection(hostOrigin));
  const mcp = createStreamableHttpHandler({
    toolServer,
    guard,
    logger,
    maxBodyBytes: config.maxBodyBytes,
    hostOrigin,
    ...(options.dangerouslyDisableGuard ? { dangerouslyDisableGuard: options.dangerouslyDisableGuard } : {}),
  });
  app.all('/mcp', (req, res) => mcp(req, res));
  if (options.extraRoutes) app.use(options.extraRoutes);
  app.use(jsonNotFound);
  app.use(jsonErrorHandler(logger));

  const frontDoor: RequestListener = (req, res) => {
    if (req.url === '/mcp' || req.url?.startsWith('/mcp?')) void mcp(req, res);
    else app(req, res);
  };
  frontDoors.set(app, frontDoor);
  // Same contract as express's own listen (a callback also hears a listen error).
  app.listen = ((...args: unknown[]): Server => {
    const server = createServer(frontDoor);
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      let called = false;
      const once = (...a: unknown[]) => void (called || ((called = true), (callback as (...x: unknown[]) => void)(...a)));
      args[args.length - 1] = once;
      server.once('error', once);
    }
    return server.listen(...(args as Parameters<Server['listen']>));
  }) as Express['listen'];
  return app;
}
