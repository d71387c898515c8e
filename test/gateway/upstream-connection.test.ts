import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamCallAbortedError, UpstreamConnection, UpstreamProtocolError, UpstreamTimeoutError } from '../../services/gateway/src/upstream/upstream-connection.ts';
import { FAKE_POOLS, startFakeUpstream, type FakeUpstream } from './fake-upstream.ts';

/**
 * The gateway's outbound connection to one upstream, against real HTTP servers: the SDK-built
 * fake upstream (JSON answers), and a hand-written one that resets reused keep-alive sockets.
 */
let upstream: FakeUpstream;
let connection: UpstreamConnection;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  connection = new UpstreamConnection({ name: 'ext', url: upstream.url, maxConcurrent: 8 });
});

afterAll(async () => {
  await connection?.close();
  await upstream?.close();
});

describe('UpstreamConnection.callTool', () => {
  it('routes calls over the shared connection and returns the upstream result', async () => {
    const r = await connection.callTool(undefined, 'list_yields', { chain: 'base' }, { timeoutMs: 5_000, idempotent: true });
    expect(r.structuredContent).toEqual(FAKE_POOLS);
    expect(upstream.callsOf('list_yields').at(-1)).toEqual({ chain: 'base' });
  });

  it('leaves no abort listener behind on a long-lived caller signal (the MaxListenersExceededWarning leak)', async () => {
    const longLived = new AbortController().signal;
    for (let i = 0; i < 40; i++) await connection.callTool(undefined, 'read_note', {}, { timeoutMs: 5_000, signal: longLived, idempotent: true });
    await Promise.all(Array.from({ length: 20 }, () => connection.callTool(undefined, 'read_note', {}, { timeoutMs: 5_000, signal: longLived, idempotent: true })));
    expect(getEventListeners(longLived, 'abort')).toHaveLength(0);
  });

  it('times out at the deadline, also without leaving a listener', async () => {
    const signal = new AbortController().signal;
    upstream.state.hangMs = 2_000;
    try {
      await expect(connection.callTool(undefined, 'slow_quote', {}, { timeoutMs: 100, signal, idempotent: true })).rejects.toBeInstanceOf(UpstreamTimeoutError);
    } finally {
      upstream.state.hangMs = 0;
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it("stops at the caller's abort", async () => {
    const controller = new AbortController();
    upstream.state.hangMs = 2_000;
    try {
      const call = connection.callTool(undefined, 'slow_quote', {}, { timeoutMs: 5_000, signal: controller.signal, idempotent: true });
      controller.abort();
      await expect(call).rejects.toBeInstanceOf(UpstreamCallAbortedError);
    } finally {
      upstream.state.hangMs = 0;
    }
  });
});

describe('a reused keep-alive socket reset before any answer', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];

  beforeAll(async () => {
    // Answers the first request on each connection (keep-alive) and resets the connection on the
    // second without answering — what a server closing an idle socket as we reuse it looks like.
    const requestsOn = new WeakMap<Socket, number>();
    server = createServer((req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const n = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, n);
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const message = JSON.parse(body) as { id: number; method: string; params: { name: string } };
        if (message.method === 'initialize') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'resetting', version: '1' } } }));
          return;
        }
        if (message.method !== 'tools/call') {
          res.writeHead(202).end();
          return;
        }
        seen.push(message.params.name);
        if (n > 1) {
          req.socket.destroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `ok ${message.params.name}` }] } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('is sent again on a fresh connection for a read-only tool', async () => {
    const c = new UpstreamConnection({ name: 'resetting', url, maxConcurrent: 1 });
    try {
      seen.length = 0;
      expect((await c.callTool(undefined, 'first', {}, { timeoutMs: 5_000, idempotent: true })).content).toEqual([{ type: 'text', text: 'ok first' }]);
      expect((await c.callTool(undefined, 'second', {}, { timeoutMs: 5_000, idempotent: true })).content).toEqual([{ type: 'text', text: 'ok second' }]);
      expect(seen).toEqual(['first', 'second', 'second']);
    } finally {
      await c.close();
    }
  });

  it('is not sent again for a tool that may change state (it may have run)', async () => {
    const c = new UpstreamConnection({ name: 'resetting', url, maxConcurrent: 1 });
    try {
      seen.length = 0;
      await c.callTool(undefined, 'first', {}, { timeoutMs: 5_000, idempotent: false });
      await expect(c.callTool(undefined, 'create', {}, { timeoutMs: 5_000, idempotent: false })).rejects.toBeInstanceOf(UpstreamProtocolError);
      expect(seen).toEqual(['first', 'create']);
    } finally {
      await c.close();
    }
  });
});
