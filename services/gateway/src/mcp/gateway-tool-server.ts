import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Session } from '../../../../shared/auth/session.ts';
import type { Logger } from '../../../../shared/log.ts';
import { InProcessTransport } from '../../../../shared/mcp/in-process-transport.ts';
import { codedErrorResult } from '../../../../shared/mcp/tool-result.ts';
import type { ToolServer } from '../../../../shared/mcp/tool-server.ts';
import { GATEHOUSE_VERSION } from '../../../../shared/version.ts';

/** What one request's handlers know: the caller, and which endpoint (root, or direct with a category) it came in on. */
export interface GatewayRequestContext {
  readonly session: Session;
  /** `undefined` on the root endpoint; `'*'` or a category on the direct endpoint. */
  readonly scope: string | undefined;
  readonly signal: AbortSignal;
}

export interface GatewayHandlers {
  listTools(ctx: GatewayRequestContext): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>, ctx: GatewayRequestContext): Promise<CallToolResult>;
  listResources(ctx: GatewayRequestContext): Promise<Resource[]>;
  listResourceTemplates(): ResourceTemplate[];
  readResource(uri: string, ctx: GatewayRequestContext): Promise<ReadResourceResult>;
}

/**
 * One SDK `Server` for the whole gateway, fed by the in-process transport like every other
 * service (STACK.md: never rebuild a server per request). Unlike `createToolServer` its tool
 * list is dynamic — it is the registry filtered for the caller — and it serves resources.
 * The endpoint a request came in on travels in `authInfo.extra.scope`, so the root and each
 * direct endpoint are thin views over this one server.
 */
export function createGatewayToolServer(options: { handlers: GatewayHandlers; logger: Logger; instructions: string }) {
  const { handlers, logger } = options;
  const server = new Server(
    { name: 'gatehouse-gateway', version: GATEHOUSE_VERSION },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false } }, instructions: options.instructions },
  );
  const contextOf = (extra: { authInfo?: AuthInfo; signal: AbortSignal }): GatewayRequestContext => {
    const e = extra.authInfo?.extra as { session: Session; scope: string | undefined };
    return { session: e.session, scope: e.scope, signal: extra.signal };
  };
  server.setRequestHandler(ListToolsRequestSchema, async (_req, extra) => ({ tools: await handlers.listTools(contextOf(extra)) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const ctx = contextOf(extra);
    try {
      return await handlers.callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>, ctx);
    } catch (err) {
      // Protocol errors (unknown/denied tool, bad meta-tool arguments) stay protocol errors;
      // anything unexpected becomes a generic failure result without internals.
      if (err instanceof McpError) throw err;
      logger.error({ err, tool: req.params.name }, 'gateway tool threw');
      return codedErrorResult('tool_failed', 'The gateway failed unexpectedly while handling this call.');
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async (_req, extra) => ({ resources: await handlers.listResources(contextOf(extra)) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: handlers.listResourceTemplates() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => handlers.readResource(req.params.uri, contextOf(extra)));

  const transport = new InProcessTransport();
  void server.connect(transport);

  const authInfoFor = (session: Session, scope: string | undefined): AuthInfo => ({
    token: '',
    clientId: session.clientId ?? session.keyId ?? 'connector',
    scopes: [...session.scopes],
    extra: { session, scope },
  });

  const views = new Map<string, ToolServer>();
  return {
    /** The `ToolServer` view for one endpoint: root (`undefined`), direct (`'*'`) or one category. */
    view(scope: string | undefined): ToolServer {
      const key = scope ?? '';
      let v = views.get(key);
      if (!v) {
        v = {
          tools: [],
          request: (message, session) => transport.request(message, { authInfo: authInfoFor(session, scope) }),
          notify: (message, session) => transport.notify(message, { authInfo: authInfoFor(session, scope) }),
          close: async () => {},
        };
        if (views.size < 1000) views.set(key, v);
      }
      return v;
    },
    close: () => server.close(),
  };
}

export function unknownTool(name: string): McpError {
  // The same answer for "does not exist", "quarantined" and "not yours to call", so a caller
  // cannot probe the registry for tools outside its policy.
  return new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(name).slice(0, 100)}`);
}
