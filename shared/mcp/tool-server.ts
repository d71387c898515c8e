import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCError,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Logger } from '../log.ts';
import type { Session } from '../auth/session.ts';
import { InProcessTransport } from './in-process-transport.ts';
import type { ToolDefinition } from './tool.ts';
import { codedErrorResult } from './tool-result.ts';

export interface ToolServerOptions {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
  readonly tools: readonly ToolDefinition<any>[];
  readonly logger: Logger;
  /** How this server words a schema failure; default `{"error": {"code": "invalid_params", …}}`. */
  readonly invalidArgumentsResult?: (tool: string, error: z.ZodError) => CallToolResult;
  /** A check every `tools/call` passes before its handler (e.g. payments' CHAIN_MODE_MISMATCH). */
  readonly beforeCall?: (session: Session, tool: string) => CallToolResult | undefined;
}

export interface ToolServer {
  readonly tools: readonly Tool[];
  request(message: JSONRPCRequest, session: Session): Promise<JSONRPCResponse | JSONRPCError>;
  notify(message: JSONRPCNotification, session: Session): void;
  close(): Promise<void>;
}

/** A schema failure message that names the offending path, e.g. `limit: expected number`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json as Tool['inputSchema'];
}

/** The advertised `tools/list` entry, computed once per process rather than per request. */
export function describeTool(tool: ToolDefinition<any>): Tool {
  const outputSchema = tool.outputJsonSchema ?? (tool.outputSchema ? toJsonSchema(tool.outputSchema, 'output') : undefined);
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: (tool.inputJsonSchema as Tool['inputSchema']) ?? toJsonSchema(tool.inputSchema, 'input'),
    ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

/**
 * One SDK `Server` per process with a fixed tool registry. Unknown tools are a protocol
 * `InvalidParams` error (-32602) raised before any handler could run; a failure inside a tool is
 * an `isError` result; an unexpected throw is logged and becomes a generic `tool_failed` result
 * so no stack trace reaches the client.
 */
export function createToolServer(options: ToolServerOptions): ToolServer {
  const { name, version, instructions, logger } = options;
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const tools = options.tools.map(describeTool);
  const invalidArguments =
    options.invalidArgumentsResult ?? ((_tool, error) => codedErrorResult('invalid_params', describeZodError(error)));

  const server = new Server({ name, version }, { capabilities: { tools: { listChanged: false } }, ...(instructions ? { instructions } : {}) });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const session = extra.authInfo?.extra?.session as Session;
    const refused = options.beforeCall?.(session, tool.name);
    if (refused) return refused;
    const parsed = tool.inputSchema.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return invalidArguments(tool.name, parsed.error);
    const requestId = randomUUID();
    try {
      return await tool.handler(parsed.data, { session, requestId, signal: extra.signal });
    } catch (err) {
      logger.error({ err, tool: tool.name, requestId }, 'tool handler threw');
      return codedErrorResult('tool_failed', `The tool failed unexpectedly (request ${requestId}).`);
    }
  });

  const transport = new InProcessTransport();
  void server.connect(transport);

  const authInfoFor = (session: Session): AuthInfo => ({
    token: '',
    clientId: session.clientId ?? session.keyId ?? 'connector',
    scopes: [...session.scopes],
    extra: { session },
  });

  // The SDK reports a request whose params fail its schema as -32603 (internal error); a
  // malformed call is the client's fault, so it is answered -32602 here before dispatch.
  const REQUEST_SCHEMAS: Record<string, z.ZodType> = { 'tools/call': CallToolRequestSchema, initialize: InitializeRequestSchema };

  return {
    tools,
    async request(message, session) {
      const schema = REQUEST_SCHEMAS[message.method];
      const checked = schema?.safeParse(message);
      if (checked && !checked.success) {
        return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${message.method}: ${describeZodError(checked.error)}` } };
      }
      return transport.request(message, { authInfo: authInfoFor(session) });
    },
    notify: (message, session) => transport.notify(message, { authInfo: authInfoFor(session) }),
    close: () => server.close(),
  };
}
