import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GatewayService } from '../../services/gateway/src/app.ts';
import { upsertUpstream } from '../../services/gateway/src/store/upstream-store.ts';
import { startStack, type Stack } from '../support/stack.ts';

/**
 * `notifications/tools/list_changed` (MCP tools spec): an upstream whose tool list changes says
 * so, and the gateway re-discovers it at once — not on its 5-minute timer, which this test
 * pushes out of reach, nor on the registry poll, pushed out too. The upstream answers with SSE
 * (not JSON), so the notification rides the response stream of the call that changed the list.
 */
let stack: Stack;
let gateway: GatewayService;
let agent: Client;
let http: Server;
let upstreamUrl: string;
const listed = new Set(['alpha']);
const listRequests: number[] = [];

const json = (r: unknown) => JSON.parse(((r as CallToolResult).content[0] as { text: string }).text);

function buildUpstream(): McpServer {
  const server = new McpServer({ name: 'changing', version: '1.0.0' });
  const readOnly = { readOnlyHint: true };
  if (listed.has('alpha')) server.registerTool('alpha', { description: 'The first tool: returns alpha.', annotations: readOnly }, async () => ({ content: [{ type: 'text', text: 'alpha' }] }));
  if (listed.has('beta')) server.registerTool('beta', { description: 'A tool added at run time: returns beta.', annotations: readOnly }, async () => ({ content: [{ type: 'text', text: 'beta' }] }));
  server.registerTool('rotate_tools', { description: 'Replaces alpha with beta and announces the change.', annotations: readOnly }, async (extra) => {
    listed.delete('alpha');
    listed.add('beta');
    await extra.sendNotification({ method: 'notifications/tools/list_changed' });
    return { content: [{ type: 'text', text: 'rotated' }] };
  });
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

beforeAll(async () => {
  http = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const body = (await readBody(req)) as { method?: string } | undefined;
    if (body?.method === 'tools/list') listRequests.push(Date.now());
    const server = buildUpstream();
    // SSE responses (enableJsonResponse: false), so a request-related notification reaches the client.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;

  const dir = mkdtempSync(join(tmpdir(), 'gw-listchanged-'));
  writeFileSync(join(dir, 'gateway.config.json'), JSON.stringify({ upstreams: [] }));
  process.env.GATEWAY_CONFIG = join(dir, 'gateway.config.json');
  process.env.GATEWAY_REFRESH_INTERVAL_MS = String(24 * 3600_000);
  process.env.GATEWAY_CATALOG_POLL_MS = String(24 * 3600_000);
  stack = await startStack({ services: ['gateway'] });
  gateway = stack.services.gateway as GatewayService;
  await upsertUpstream(stack.db, {
    name: 'changing',
    url: upstreamUrl,
    prefix: 'chg',
    categories: ['general'],
    tier: 'free',
    costMicroUsdc: 0,
    timeoutMs: 10_000,
    cacheTtls: {},
    auth: { kind: 'none' },
    autoApprove: [],
    source: 'cli',
  });
  await gateway.registry.refreshDue();
  await stack.createUser({ email: 'lc@example.com' });
  agent = await stack.mcpClient('gateway', (await stack.createKey('lc@example.com')).api_key);
}, 240_000);

afterAll(async () => {
  await agent?.close();
  await stack?.close();
  http?.closeAllConnections();
  await new Promise((r) => http?.close(r));
});

const names = () => gateway.registry.catalog().tools.filter((t) => t.upstream.name === 'changing').map((t) => t.name).sort();

describe('notifications/tools/list_changed', () => {
  it('re-discovers the upstream when it announces a change: the new tool appears, the removed one is refused', async () => {
    expect(names()).toEqual(['chg_alpha', 'chg_rotate_tools']);
    const alpha = (await agent.callTool({ name: 'invoke_tool', arguments: { tool: 'chg_alpha', arguments: {} } })) as CallToolResult;
    expect((alpha.content[0] as { text: string }).text).toBe('alpha');
    const listsBefore = listRequests.length;

    const rotated = (await agent.callTool({ name: 'invoke_tool', arguments: { tool: 'chg_rotate_tools', arguments: {} } })) as CallToolResult;
    expect(rotated.isError).toBeFalsy();

    // The refresh is asynchronous to the call that triggered it; wait for the catalog, not a clock.
    await vi.waitFor(() => expect(names()).toEqual(['chg_beta', 'chg_rotate_tools']), { timeout: 20_000, interval: 50 });
    expect(listRequests.length).toBeGreaterThan(listsBefore);

    const beta = (await agent.callTool({ name: 'invoke_tool', arguments: { tool: 'chg_beta', arguments: {} } })) as CallToolResult;
    expect(beta.isError).toBeFalsy();
    expect((beta.content[0] as { text: string }).text).toBe('beta');
    await expect(agent.callTool({ name: 'invoke_tool', arguments: { tool: 'chg_alpha', arguments: {} } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: chg_alpha') });
    const found = json(await agent.callTool({ name: 'search_tools', arguments: { query: 'tool added at run time returns beta' } }));
    expect(found.tools.map((t: { name: string }) => t.name)).toContain('chg_beta');
  });
});
