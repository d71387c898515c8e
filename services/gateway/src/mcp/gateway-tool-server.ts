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
  type JSONRPCError,
  type JSONRPCRequest,
  type JSONRPCResponse,
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
  /** Aborts the routed call when the caller goes away; absent where nothing can abort it. */
  readonly signal?: AbortSignal;
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
  const callTool = async (name: string, args: Record<string, unknown>, ctx: GatewayRequestContext): Promise<CallToolResult> => {
    try {
      return await handlers.callTool(name, args, ctx);
    } catch (err) {
      // Protocol errors (unknown/denied tool, bad meta-tool arguments) stay protocol errors;
      // anything unexpected becomes a generic failure result without internals.
      if (err instanceof McpError) throw err;
      logger.error({ err, tool: name }, 'gateway tool threw');
      return codedErrorResult('tool_failed', 'The gateway failed unexpectedly while handling this call.');
    }
  };
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>, contextOf(extra)));
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

  /**
   * `tools/call` is every routed call's path, so it is answered here rather than through the
   * SDK's dispatch, which parses the request against its schema twice and then the whole result
   * once more — for a large upstream answer that costs more than routing it. Our results are
   * built from upstream answers already checked field by field (upstream/call-tool-result.ts).
   * Malformed params get an InvalidParams naming the field (the SDK's own path answers those
   * with an InternalError carrying a zod dump). Task-augmented calls, which this server does not
   * advertise, still take the SDK's path.
   */
  const toolCallParams = (message: JSONRPCRequest): { name: string; args: Record<string, unknown> } | string | undefined => {
    if (message.method !== 'tools/call') return undefined;
    const params = message.params as Record<string, unknown> | undefined;
    if (params?.task !== undefined) return undefined;
    if (typeof params?.name !== 'string') return 'Invalid params: tools/call needs params.name, a string';
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return 'Invalid params: tools/call params.arguments must be an object';
    return { name: params.name, args: (args ?? {}) as Record<string, unknown> };
  };
  const answerToolCall = async (message: JSONRPCRequest, call: { name: string; args: Record<string, unknown> } | string, ctx: GatewayRequestContext): Promise<JSONRPCResponse | JSONRPCError> => {
    if (typeof call === 'string') return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: call } };
    try {
      return { jsonrpc: '2.0', id: message.id, result: await callTool(call.name, call.args, ctx) };
    } catch (err) {
      // The SDK's wire form of a thrown McpError (shared/protocol.js), so both paths answer alike.
      const e = err as McpError;
      return { jsonrpc: '2.0', id: message.id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
    }
  };

  const views = new Map<string, ToolServer>();
  return {
    /** The `ToolServer` view for one endpoint: root (`undefined`), direct (`'*'`) or one category. */
    view(scope: string | undefined): ToolServer {
      const key = scope ?? '';
      let v = views.get(key);
      if (!v) {
        v = {
          tools: [],
          request: (message, session) => {
            const call = toolCallParams(message);
            // The front door answers once the whole call is done, so no signal is passed here: a
            // signal that can never fire still costs an abort listener on every upstream call.
            if (call !== undefined) return answerToolCall(message, call, { session, scope });
            return transport.request(message, { authInfo: authInfoFor(session, scope) });
          },
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
