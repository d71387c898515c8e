import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { GATEHOUSE_VERSION } from '../../../../shared/version.ts';

/**
 * One SDK client per upstream, shared by every caller. The credential is not baked into the
 * transport: each call runs inside an AsyncLocalStorage scope holding *that call's* upstream
 * credential (an on-behalf-of token for our servers, the configured secret for external ones),
 * and the transport's fetch reads it from there. So one connection serves many callers without
 * any of them seeing another's token, and nothing about a caller outlives its request.
 */
const credentialScope = new AsyncLocalStorage<string | undefined>();

export class UpstreamTimeoutError extends Error {
  override name = 'UpstreamTimeoutError';
}
export class UpstreamBusyError extends Error {
  override name = 'UpstreamBusyError';
}

export interface UpstreamConnectionOptions {
  readonly name: string;
  readonly url: string;
  readonly maxConcurrent: number;
  /** How many calls may wait for a slot before new ones are refused as `rate_limited`. */
  readonly maxQueued?: number;
  readonly onToolListChanged?: () => void;
}

export class UpstreamConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly options: UpstreamConnectionOptions) {}

  private async connect(): Promise<Client> {
    const client = new Client({ name: 'gatehouse-gateway', version: GATEHOUSE_VERSION }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(this.options.url), {
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
   * One `tools/call` with a deadline: the SDK request times out at `timeoutMs` and is cancelled
   * upstream, and the caller's own abort (client gone) is passed down too.
   */
  async callTool(credential: string | undefined, name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<CallToolResult> {
    await this.acquire();
    try {
      return await credentialScope.run(credential, async () => {
        const client = await this.ready();
        try {
          return (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs, ...(signal ? { signal } : {}) })) as CallToolResult;
        } catch (err) {
          const code = (err as { code?: number }).code;
          if (code === -32001) throw new UpstreamTimeoutError(`${this.options.name} did not answer within ${timeoutMs} ms`);
          if (code === undefined) this.reset();
          throw err;
        }
      });
    } finally {
      this.release();
    }
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.close().catch(() => {});
  }
}
