import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { GATEHOUSE_VERSION } from '../../../../shared/version.ts';
import { toCallToolResult } from './call-tool-result.ts';
import { postJsonRpcRequest, type JsonRpcIncoming } from './json-rpc-post.ts';
import { UpstreamBusyError, UpstreamCallAbortedError, UpstreamProtocolError, UpstreamRpcError, UpstreamTimeoutError } from './upstream-errors.ts';

export { UpstreamBusyError, UpstreamCallAbortedError, UpstreamProtocolError, UpstreamRpcError, UpstreamTimeoutError };

/**
 * One connection per upstream, shared by every caller, in two parts:
 *
 * - an SDK client for the session's life cycle — `initialize`, `tools/list`, and notifications on
 *   the GET stream — which are rare;
 * - `tools/call`, the hot path, posted directly over a keep-alive agent (json-rpc-post.ts) with
 *   the session id and protocol version the SDK client negotiated.
 *
 * The credential is never baked into the connection: each call carries *that call's* upstream
 * credential (an on-behalf-of token for our servers, the configured secret for external ones);
 * the SDK transport's fetch reads it from an AsyncLocalStorage scope. So one connection serves
 * many callers without any of them seeing another's token, and nothing about a caller outlives
 * its request.
 */
const credentialScope = new AsyncLocalStorage<string | undefined>();

/** An upstream answer larger than this is refused rather than buffered. */
export const MAX_UPSTREAM_ANSWER_BYTES = 16 * 1024 * 1024;

export interface UpstreamConnectionOptions {
  readonly name: string;
  readonly url: string;
  readonly maxConcurrent: number;
  /** How many calls may wait for a slot before new ones are refused as `rate_limited`. */
  readonly maxQueued?: number;
  readonly onToolListChanged?: () => void;
}

export interface ToolCallOptions {
  readonly timeoutMs: number;
  /** The caller's abort (its client went away). */
  readonly signal?: AbortSignal | undefined;
  /** The tool is read-only, so a send that may not have arrived can be repeated. */
  readonly idempotent: boolean;
}

export class UpstreamConnection {
  private client: Client | undefined;
  private transport: StreamableHTTPClientTransport | undefined;
  private connecting: Promise<Client> | undefined;
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private nextId = 1;

  constructor(readonly options: UpstreamConnectionOptions) {
    this.url = new URL(options.url);
    // One socket per call in flight at most, kept alive between calls (LIFO keeps the warm ones
    // warm); idle sockets are closed after 4 s, before Node servers' default 5 s keep-alive.
    const agentOptions = { keepAlive: true, maxSockets: options.maxConcurrent, maxFreeSockets: options.maxConcurrent, scheduling: 'lifo' as const, timeout: 4_000 };
    this.agent = this.url.protocol === 'https:' ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  }

  private async connect(): Promise<Client> {
    const client = new Client({ name: 'gatehouse-gateway', version: GATEHOUSE_VERSION }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(this.url, {
      fetch: (input, init) => {
        const credential = credentialScope.getStore();
        const headers = new Headers(init?.headers);
        if (credential) headers.set('authorization', `Bearer ${credential}`);
        else headers.delete('authorization');
        return fetch(input, { ...init, headers });
      },
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => this.options.onToolListChanged?.());
    client.onerror = () => {};
    transport.onerror = () => {};
    await client.connect(transport);
    this.transport = transport;
    return client;
  }

  private async ready(): Promise<Client> {
    if (this.client) return this.client;
    this.connecting ??= this.connect().then(
      (c) => {
        this.client = c;
        this.connecting = undefined;
        return c;
      },
      (err) => {
        this.connecting = undefined;
        throw err;
      },
    );
    return this.connecting;
  }

  /** Forget the connection (after a transport failure) so the next call reconnects. */
  reset(): void {
    const c = this.client;
    this.client = undefined;
    this.transport = undefined;
    void c?.close().catch(() => {});
  }

  private async acquire(): Promise<void> {
    if (this.active < this.options.maxConcurrent) {
      this.active += 1;
      return;
    }
    if (this.waiters.length >= (this.options.maxQueued ?? this.options.maxConcurrent * 4)) throw new UpstreamBusyError(`${this.options.name} is at its concurrency limit`);
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active -= 1;
  }

  async listTools(credential: string | undefined, timeoutMs: number): Promise<Tool[]> {
    return credentialScope.run(credential, async () => {
      const client = await this.ready();
      const tools: Tool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const result = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
        tools.push(...result.tools);
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return tools;
    });
  }

  /**
   * One `tools/call` with a deadline: at `timeoutMs` the request is abandoned (its connection
   * closed, which ends a stateless upstream's handling) and the upstream is told it was
   * cancelled; the caller's own abort (client gone) does the same.
   */
  async callTool(credential: string | undefined, name: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<CallToolResult> {
    const { timeoutMs } = options;
    await this.acquire();
    try {
      const deadlineMs = Date.now() + timeoutMs;
      await credentialScope.run(credential, () => this.ready());
      try {
        return await this.postToolCall(credential, name, args, deadlineMs, options);
      } catch (err) {
        // A stateful upstream that forgot our session answers 404: start a new one and retry once.
        if (!(err instanceof UpstreamProtocolError && err.status === 404 && this.transport?.sessionId)) throw err;
        this.reset();
        await credentialScope.run(credential, () => this.ready());
        return await this.postToolCall(credential, name, args, deadlineMs, options);
      }
    } catch (err) {
      if (err instanceof UpstreamTimeoutError) throw new UpstreamTimeoutError(`${this.options.name} did not answer within ${timeoutMs} ms`);
      // Transport trouble may mean the upstream restarted: the next call re-initializes.
      if (err instanceof UpstreamProtocolError && err.status === undefined) this.reset();
      throw err;
    } finally {
      this.release();
    }
  }

  private headers(credential: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': this.transport?.protocolVersion ?? LATEST_PROTOCOL_VERSION,
    };
    const session = this.transport?.sessionId;
    if (session) headers['mcp-session-id'] = session;
    if (credential) headers.authorization = `Bearer ${credential}`;
    return headers;
  }

  private async postToolCall(credential: string | undefined, name: string, args: Record<string, unknown>, deadlineMs: number, options: ToolCallOptions): Promise<CallToolResult> {
    const id = this.nextId++;
    let reply: JsonRpcIncoming;
    try {
      reply = await postJsonRpcRequest({
        url: this.url,
        agent: this.agent,
        headers: this.headers(credential),
        id,
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
        deadlineMs,
        signal: options.signal,
        retryOnStaleSocket: options.idempotent,
        maxResponseBytes: MAX_UPSTREAM_ANSWER_BYTES,
        onNotification: (message) => {
          if (message.method === 'notifications/tools/list_changed') this.options.onToolListChanged?.();
        },
      });
    } catch (err) {
      if (err instanceof UpstreamTimeoutError || err instanceof UpstreamCallAbortedError) this.cancel(credential, id, err.message);
      throw err;
    }
    if (reply.error !== undefined) {
      const code = typeof reply.error.code === 'number' ? reply.error.code : -32603;
      throw new UpstreamRpcError(code, typeof reply.error.message === 'string' ? reply.error.message : 'upstream error');
    }
    return toCallToolResult(reply.result);
  }

  /** Best effort `notifications/cancelled` (MCP cancellation), for upstreams that keep working on an abandoned request. */
  private cancel(credential: string | undefined, requestId: number, reason: string): void {
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } });
    void postJsonRpcRequest({ url: this.url, agent: this.agent, headers: this.headers(credential), id: -1, body, deadlineMs: Date.now() + 5_000, maxResponseBytes: 64 * 1024 }).catch(() => {});
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    this.transport = undefined;
    await c?.close().catch(() => {});
    this.agent.destroy();
  }
}
