import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../../shared/config.ts';
import { createLogger } from '../../../shared/log.ts';
import type { Session } from '../../../shared/auth/session.ts';
import { openTestDb } from '../../support/test-db.ts';
import { createKnowledgeService } from '../../../services/knowledge/src/app.ts';
import { loadKnowledgeConfig, type KnowledgeConfig } from '../../../services/knowledge/src/config.ts';
import { ingestFile } from '../../../services/knowledge/src/ingest/ingest-file.ts';
import { createKnowledgeStore, type KnowledgeStore } from '../../../services/knowledge/src/store/knowledge-store.ts';

export interface KnowledgeCaller {
  readonly userId: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The structured document of a successful call (throws with the text on isError). */
  json<T = any>(name: string, args?: Record<string, unknown>): Promise<T>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

export function connectorSession(userId: string): Session {
  return { subject: userId, kind: 'connector', chainId: '153', audience: 'http://127.0.0.1/mcp', scopes: ['knowledge:read'], expiresAt: Math.floor(Date.now() / 1000) + 3600, sessionToken: `session-token-of-${userId}` };
}

/**
 * One database, one knowledge app per caller (the guard is replaced by a fixed connector session,
 * so two users are two apps over the same rows), reached through the SDK's real client.
 */
export async function startKnowledgeHarness(env: Record<string, string> = {}, fetchImpl?: typeof fetch, configEnv: Record<string, string> = {}) {
  const db = await openTestDb();
  const store: KnowledgeStore = createKnowledgeStore(db);
  const knowledge: KnowledgeConfig = loadKnowledgeConfig({ KNOWLEDGE_CURSOR_SECRET: randomBytes(32).toString('hex'), ...env });
  const logger = createLogger('silent');
  const closers: Array<() => Promise<void>> = [];

  async function caller(userId: string = randomUUID()): Promise<KnowledgeCaller> {
    const port = await freePort();
    const config = loadConfig({ ...process.env, ...configEnv, PORT_KNOWLEDGE: String(port), LOG_LEVEL: 'silent' });
    const service = await createKnowledgeService({ config, db, logger }, { knowledge, dangerouslyDisableGuard: connectorSession(userId), ...(fetchImpl ? { fetch: fetchImpl } : {}) });
    const server: Server = await new Promise((resolve) => {
      const s = service.app.listen(port, '127.0.0.1', () => resolve(s));
    });
    const client = new Client({ name: 'knowledge-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    closers.push(async () => {
      await client.close();
      await new Promise((r) => server.close(r));
      await service.close();
    });
    const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    return {
      userId,
      call,
      async json(name, args) {
        const result = await call(name, args);
        if (result.isError) throw new Error(`${name} failed: ${(result.content[0] as { text: string }).text}`);
        return result.structuredContent as any;
      },
    };
  }

  async function ingestText(roomId: string, userId: string, name: string, text: string | Uint8Array) {
    return ingestFile(store, { roomId, userId, name, bytes: typeof text === 'string' ? Buffer.from(text, 'utf8') : text });
  }

  return {
    db,
    store,
    knowledge,
    caller,
    ingestText,
    async close() {
      for (const c of closers.reverse()) await c();
      await db.close();
    },
  };
}

export function errorText(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}
