import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceName } from '../../shared/config.ts';
import { startStack, type Stack } from '../support/stack.ts';

const MCP_SERVERS: ServiceName[] = ['research', 'knowledge', 'payments-test', 'payments-live', 'gateway'];
const MCP_REMOTE = fileURLToPath(new URL('../../node_modules/mcp-remote/dist/proxy.js', import.meta.url));

/**
 * Drives mcp-remote (the stdio↔HTTP bridge many desktop clients use) the way a client would:
 * newline-delimited JSON-RPC on stdin/stdout. With the connector key in a header it must reach
 * the server without ever starting OAuth.
 */
async function listToolsThroughMcpRemote(url: string, key: string): Promise<{ tools: Array<{ name: string }>; stderr: string }> {
  const child = spawn(process.execPath, [MCP_REMOTE, url, '--header', `Authorization: Bearer ${key}`, '--allow-http', '--transport', 'http-only'], {
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'mcp-remote-')) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const replies = new Map<number, (msg: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      const msg = JSON.parse(line) as { id?: number };
      if (typeof msg.id === 'number') replies.get(msg.id)?.(msg as Record<string, unknown>);
    } catch {
      /* not a JSON-RPC line */
    }
  });
  const send = (msg: Record<string, unknown>) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mcp-remote: no reply to ${method}; stderr:\n${stderr}`)), 20_000);
      replies.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      send({ jsonrpc: '2.0', id, method, params });
    });
  try {
    await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gatehouse-test', version: '0' } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const listed = await request(2, 'tools/list');
    return { tools: (listed.result as { tools: Array<{ name: string }> }).tools, stderr };
  } finally {
    child.kill();
  }
}

describe('real clients connect with a connector key and no OAuth step', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ services: MCP_SERVERS });
    await stack.createUser({ email: 'c@example.com' });
    key = (await stack.createKey('c@example.com')).api_key;
  });
  afterAll(() => stack?.close());

  it.each(MCP_SERVERS)('the SDK client lists tools on %s', async (server) => {
    const client = await stack.mcpClient(server, key);
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) {
        expect(typeof tool.description).toBe('string');
        expect(tool.inputSchema.type).toBe('object');
      }
    } finally {
      await client.close();
    }
  });

  it.each(MCP_SERVERS)('mcp-remote (pinned) lists tools on %s without OAuth', async (server) => {
    const { tools, stderr } = await listToolsThroughMcpRemote(stack.url(server), key);
    expect(tools.length).toBeGreaterThan(0);
    expect(stderr).not.toMatch(/Authorization required|OAuth callback|Please authorize/i);
    expect(stderr).not.toContain(key);
  });
});
