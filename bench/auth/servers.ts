/**
 * The servers bench/auth measures, started in their own process so the load generator does not
 * share their event loop. Prints one JSON line with the URLs and a connector key once ready.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServiceGuard } from '../../shared/auth/create-service-guard.ts';
import type { Session } from '../../shared/auth/session.ts';
import { loadConfig } from '../../shared/config.ts';
import { openDb } from '../../shared/db/client.ts';
import { runMigrations } from '../../shared/db/migrate.ts';
import { createLogger } from '../../shared/log.ts';
import { createHealthTool } from '../../shared/mcp/health-tool.ts';
import { createMcpServiceApp } from '../../shared/mcp/mcp-service-app.ts';
import { createToolServer } from '../../shared/mcp/tool-server.ts';
import { createAuthService } from '../../services/auth/src/app.ts';

async function listen(handler: Parameters<typeof createServer>[1] | import('express').Express, port = 0): Promise<number> {
  const server = createServer(handler as Parameters<typeof createServer>[1]);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

const authPort = await freePort();
const researchPort = await freePort();
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', PORT_AUTH: String(authPort), PORT_RESEARCH: String(researchPort), SEED_DEMO_USER: 'false', DATABASE_URL: undefined });
const logger = createLogger('silent');
const db = await openDb(config, { inMemory: true });
await runMigrations(db);
const auth = await createAuthService({ config, db, logger });
await listen(auth.app, authPort);
const user = await auth.accountService.addUser({ email: 'bench@example.com', password: 'bench-password', verificationLevel: 'none' });
const { apiKey } = await auth.accountService.createApiKey(user, { serviceName: 'bench', kind: 'connector' });

const endpoint = config.services.research;
const toolServer = createToolServer({ name: 'bench', version: '0', tools: [createHealthTool('bench', '0')], logger });
const guarded = createMcpServiceApp({
  config,
  endpoint,
  guard: createServiceGuard(config, endpoint, null),
  toolServer,
  logger,
  resourceName: 'bench',
  scopesSupported: ['research:read'],
});
// The apps' own listen: their MCP front door answers /mcp without express.
await new Promise<void>((r) => guarded.listen(researchPort, '127.0.0.1', () => r()));

const fakeSession: Session = { subject: user.id, kind: 'connector', chainId: null, audience: endpoint.resource, scopes: [], expiresAt: 4102444800, sessionToken: '' };
const unguarded = createMcpServiceApp({
  config,
  endpoint,
  guard: createServiceGuard(config, endpoint, null),
  toolServer,
  logger,
  resourceName: 'bench',
  scopesSupported: [],
  dangerouslyDisableGuard: fakeSession,
});
const unguardedPort = await freePort();
await new Promise<void>((r) => unguarded.listen(unguardedPort, '127.0.0.1', () => r()));

// The SDK's stateless recipe: a new McpServer and transport for every request, no framework.
const naivePort = await listen(async (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const server = new McpServer({ name: 'naive', version: '0' });
  server.registerTool('health', { description: 'Liveness.' }, async () => ({ content: [{ type: 'text', text: '{"status":"ok"}' }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString()));
});

// The ceiling for this stack: node:http answering the JSON-RPC by hand.
const ceilingBody = JSON.stringify({ tools: toolServer.tools });
const ceilingPort = await listen(async (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: number };
  res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${id},"result":${ceilingBody}}`);
});

process.stdout.write(
  `${JSON.stringify({
    key: apiKey,
    targets: {
      ceiling: `http://127.0.0.1:${ceilingPort}/mcp`,
      naiveSdk: `http://127.0.0.1:${naivePort}/mcp`,
      unguarded: `http://127.0.0.1:${unguardedPort}/mcp`,
      guarded: endpoint.resource,
    },
  })}\n`,
);
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
