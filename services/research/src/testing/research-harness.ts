import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../../../shared/config.ts';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { createLogger } from '../../../../shared/log.ts';
import { requestListenerOf } from '../../../../shared/mcp/mcp-service-app.ts';
import { openTestDb } from '../../../../test/support/test-db.ts';
import { buildResearchService, type ResearchService } from '../app.ts';
import { loadResearchConfig } from '../config.ts';
import { startFakeDefillama, type FakeDefillama } from './fake-defillama.ts';

export interface Envelope {
  ok: boolean;
  schemaVersion: string;
  requestId: string;
  data: any;
  meta: any;
  error?: { code: string; message: string };
}

export interface ResearchHarness {
  readonly fake: FakeDefillama;
  readonly db: DbHandle;
  readonly baseUrl: string;
  readonly service: ResearchService;
  call(tool: string, args?: Record<string, unknown>): Promise<{ result: CallToolResult; envelope: Envelope }>;
  client(): Promise<Client>;
  /** Rebuilds the service on the same DB and fake upstream (a "restart"), optionally with new env. */
  restart(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/** Test-only: the research service on an ephemeral port, pointed at a fake DefiLlama through its env vars. */
export async function startResearchHarness(options: { env?: Record<string, string>; now?: () => Date; db?: DbHandle; fake?: FakeDefillama } = {}): Promise<ResearchHarness> {
  const fake = options.fake ?? (await startFakeDefillama());
  const db = options.db ?? (await openTestDb());
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const config = loadConfig({ PORT_RESEARCH: String(port), LOG_LEVEL: 'silent' });
  const logger = createLogger('silent');
  const session = { subject: 'user-test', kind: 'connector' as const, chainId: null, audience: config.services.research.resource, scopes: ['research:read'], expiresAt: Math.floor(Date.now() / 1000) + 3600, sessionToken: '' };
  let service!: ResearchService;
  const build = async (env: Record<string, string>) => {
    const researchConfig = loadResearchConfig({
      DEFILLAMA_YIELDS_URL: fake.url,
      DEFILLAMA_STABLECOINS_URL: fake.url,
      DEFILLAMA_API_URL: fake.url,
      YH_REVALIDATE_MIN_INTERVAL_SECONDS: '0',
      ...env,
    });
    service = await buildResearchService({ config, db, logger, researchConfig, ...(options.now ? { now: options.now } : {}), dangerouslyDisableGuard: session });
    http.removeAllListeners('request');
    http.on('request', requestListenerOf(service.app));
  };
  let currentEnv = options.env ?? {};
  await build(currentEnv);
  const baseUrl = `http://127.0.0.1:${port}`;
  const clients: Client[] = [];
  const client = async () => {
    const c = new Client({ name: 'research-test', version: '0.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
    clients.push(c);
    return c;
  };
  let shared: Client | null = null;
  return {
    fake,
    db,
    baseUrl,
    get service() {
      return service;
    },
    client,
    async call(tool, args = {}) {
      shared ??= await client();
      const result = (await shared.callTool({ name: tool, arguments: args })) as CallToolResult;
      const text = (result.content[0] as { text: string }).text;
      return { result, envelope: JSON.parse(text) as Envelope };
    },
    async restart(env) {
      await service.close();
      if (env) currentEnv = env;
      await build(currentEnv);
    },
    async close() {
      for (const c of clients) await c.close().catch(() => undefined);
      await service.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      if (!options.fake) await fake.close();
      if (!options.db) await db.close();
    },
  } as ResearchHarness;
}
