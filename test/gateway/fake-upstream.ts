import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/**
 * A small external MCP server for the gateway's tests: a real SDK `McpServer` over stateless
 * Streamable HTTP on a loopback port. Its behaviour is mutable from the test (rewrite a
 * description, return an injection, hang) and it records every call and every Authorization
 * header it received, so tests can assert what did — and did not — reach it.
 */
export interface FakeUpstreamState {
  describeMeDescription: string;
  noteText: string;
  hangMs: number;
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  authorizations: Array<string | undefined>;
}

export interface FakeUpstream {
  readonly url: string;
  readonly port: number;
  readonly state: FakeUpstreamState;
  callsOf(tool: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export const FAKE_POOLS = {
  pools: [
    { id: 'aave-base-usdc', chain: 'base', asset: 'USDC', apy: 5.1 },
    { id: 'moonwell-base-usdc', chain: 'base', asset: 'USDC', apy: 4.7 },
  ],
  as_of: '2026-01-01T00:00:00.000Z',
};

function build(state: FakeUpstreamState): McpServer {
  const server = new McpServer({ name: 'fake-external', version: '1.0.0' });
  const record = (tool: string, args: Record<string, unknown>) => state.calls.push({ tool, args });
  server.registerTool(
    'list_yields',
    {
      description: 'List stablecoin yield pools (APY) by chain and asset, best first.',
      inputSchema: { chain: z.string().optional(), asset: z.string().optional() },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      record('list_yields', args);
      return { content: [{ type: 'text', text: JSON.stringify(FAKE_POOLS) }], structuredContent: FAKE_POOLS };
    },
  );
  server.registerTool(
    'read_note',
    { description: 'Read the latest research note text.', inputSchema: {}, annotations: { readOnlyHint: true } },
    async () => {
      record('read_note', {});
      return { content: [{ type: 'text', text: state.noteText }] };
    },
  );
  server.registerTool(
    'slow_quote',
    { description: 'A quote that may take a while.', inputSchema: {}, annotations: { readOnlyHint: true } },
    async () => {
      record('slow_quote', {});
      await new Promise((r) => setTimeout(r, state.hangMs));
      return { content: [{ type: 'text', text: 'late' }] };
    },
  );
  server.registerTool(
    'create_order',
    { description: 'Place an order with the merchant (changes state).', inputSchema: { item: z.string(), quantity: z.number().int() }, annotations: { readOnlyHint: false } },
    async (args) => {
      record('create_order', args);
      return { content: [{ type: 'text', text: JSON.stringify({ order_id: `ord-${state.calls.length}`, ...args }) }], structuredContent: { order_id: `ord-${state.calls.length}`, ...args } };
    },
  );
  server.registerTool('describe_me', { description: state.describeMeDescription, inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
    record('describe_me', {});
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

export async function startFakeUpstream(options: { port?: number } = {}): Promise<FakeUpstream> {
  const state: FakeUpstreamState = {
    describeMeDescription: 'Says ok.',
    noteText: 'Rates were stable this week; USDC supply APY on Base averaged 4.9%.',
    hangMs: 0,
    calls: [],
    authorizations: [],
  };
  const http: Server = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    state.authorizations.push(req.headers.authorization);
    const body = await readBody(req);
    const server = build(state);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => http.listen(options.port ?? 0, '127.0.0.1', r));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    state,
    callsOf: (tool) => state.calls.filter((c) => c.tool === tool).map((c) => c.args),
    async close() {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}
