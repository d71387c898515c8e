import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ENV_SUFFIX, loadConfig, SERVICE_NAMES, type Config, type ServiceName } from '../../shared/config.ts';
import type { DbHandle } from '../../shared/db/client.ts';
import { createLogger } from '../../shared/log.ts';
import type { BuiltService } from '../../shared/service.ts';
import { requestListenerOf } from '../../shared/mcp/mcp-service-app.ts';
import type { AuthService } from '../../services/auth/src/app.ts';
import { SERVICE_FACTORIES } from '../../services/service-registry.ts';
import { openTestDb } from './test-db.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export interface StackOptions {
  /** Services besides auth to start (auth always runs). Default: all. */
  services?: ServiceName[];
  /** Extra env (e.g. EXCHANGE_CACHE_TTL_SECONDS, a service's upstream URLs). */
  env?: Record<string, string>;
  /** Wraps the database handle auth uses (fault injection for outage tests). */
  wrapAuthDb?: (db: DbHandle) => DbHandle;
  /** PGlite in this folder instead of in memory (benchmarks measure the database as `npm start` runs it). */
  pgliteDataDir?: string;
}

export interface Stack {
  readonly config: Config;
  readonly db: Awaited<ReturnType<typeof openTestDb>>;
  readonly auth: AuthService;
  readonly services: Partial<Record<ServiceName, BuiltService>>;
  url(service: ServiceName): string;
  createUser(input: { email: string; password?: string; kyc?: boolean }): Promise<{ id: string; email: string; password: string }>;
  login(email: string, password?: string): Promise<string>;
  createKey(email: string, options?: { kind?: 'personal' | 'connector'; chains?: string[]; password?: string }): Promise<{ api_key: string; id: string }>;
  mcpClient(service: ServiceName, bearer: string): Promise<Client>;
  /** Frees the port held for a service this stack did not start, so a test can put its own server there. */
  releasePort(service: ServiceName): Promise<number>;
  /** Stops a service's listener (its port refuses connections) until `resume`. */
  suspend(service: ServiceName): Promise<void>;
  resume(service: ServiceName): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_PASSWORD = 'correct horse battery staple';

/**
 * Starts auth plus the named services in this process, each on its own loopback port with its
 * own public URL, all on one fresh test database. This is the real HTTP path: the guard
 * exchanges keys at auth over HTTP and fetches its JWKS, exactly as separate processes would.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const names: ServiceName[] = ['auth', ...(options.services ?? SERVICE_NAMES.filter((s) => s !== 'auth'))];
  const env: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SEED_DEMO_USER: 'false',
    EXCHANGE_CACHE_TTL_SECONDS: '1',
    LOGIN_RATE_LIMIT_PER_ADDRESS: '1000',
    LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000',
    ...options.env,
  };
  // Every service's port is bound to port 0 first and kept, so no parallel test file can take it
  // between choosing and listening. A started service's app is attached afterwards; a service
  // this stack does not start keeps a listener that resets every connection, so calls to it fail
  // fast (as a down server's would) instead of reaching another file's server on a reused port.
  const reserved = new Map<ServiceName, Server>();
  const refusing = new Map<ServiceName, Server>();
  for (const name of SERVICE_NAMES) {
    const key = `PORT_${ENV_SUFFIX[name]}`;
    if (env[key]) continue;
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    env[key] = String((server.address() as AddressInfo).port);
    if (names.includes(name)) reserved.set(name, server);
    else {
      server.on('connection', (socket) => socket.destroy());
      refusing.set(name, server);
    }
  }
  const db = await openTestDb(options.pgliteDataDir ? { pgliteDataDir: options.pgliteDataDir } : {});
  const config = loadConfig({ ...env, ...(db.config.databaseSchema ? { DATABASE_SCHEMA: db.config.databaseSchema } : {}) });
  const logger = createLogger(config.logLevel);
  const deps = { config, db, logger, env };

  const services: Partial<Record<ServiceName, BuiltService>> = {};
  const servers = new Map<ServiceName, Server>();
  const listen = (name: ServiceName) =>
    new Promise<Server>((resolve, reject) => {
      const s = services[name]!.app.listen(config.services[name].port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
  for (const name of names) {
    const service = await SERVICE_FACTORIES[name](name === 'auth' && options.wrapAuthDb ? { ...deps, db: options.wrapAuthDb(db) } : deps);
    services[name] = service;
    const held = reserved.get(name);
    if (held) {
      held.on('request', requestListenerOf(service.app));
      servers.set(name, held);
    } else servers.set(name, await listen(name));
    await service.start?.();
  }
  const auth = services.auth as AuthService;
  const passwords = new Map<string, string>();
  const authUrl = config.services.auth.publicUrl;

  async function login(email: string, password?: string): Promise<string> {
    const res = await fetch(`${authUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: password ?? passwords.get(email) ?? DEFAULT_PASSWORD }),
    });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  return {
    config,
    db,
    auth,
    services,
    url: (service) => (service === 'auth' ? authUrl : config.services[service].resource),
    async createUser({ email, password = DEFAULT_PASSWORD, kyc = false }) {
      const user = await auth.accountService.addUser({ email, password, verificationLevel: kyc ? 'kyc' : 'none' });
      passwords.set(user.email, password);
      return { id: user.id, email: user.email, password };
    },
    login,
    async createKey(email, { kind = 'connector', chains, password } = {}) {
      const token = await login(email, password);
      const res = await fetch(`${authUrl}/auth/api-key/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ service_name: 'test', kind, ...(chains ? { allowed_chains: chains } : {}) }),
      });
      if (res.status !== 201) throw new Error(`key generation failed: ${res.status} ${await res.text()}`);
      return (await res.json()) as { api_key: string; id: string };
    },
    async mcpClient(service, bearer) {
      const client = new Client({ name: 'gatehouse-test', version: '0.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(config.services[service].resource), {
        requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
      });
      await client.connect(transport);
      return client;
    },
    async releasePort(name) {
      const server = refusing.get(name);
      if (!server) throw new Error(`${name} is not a port this stack holds idle`);
      refusing.delete(name);
      await new Promise((r) => server.close(r));
      return config.services[name].port;
    },
    async suspend(name) {
      const server = servers.get(name)!;
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
    async resume(name) {
      servers.set(name, await listen(name));
    },
    async close() {
      for (const server of refusing.values()) await new Promise((r) => server.close(r));
      for (const server of servers.values()) {
        if (!server.listening) continue;
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
      for (const service of Object.values(services)) await service?.close();
      await db.close();
    },
  };
}
