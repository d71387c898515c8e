import { ErrorCode, McpError, type CallToolResult, type Resource, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeZodError } from '../../../../shared/mcp/tool-server.ts';
import { codedErrorResult } from '../../../../shared/mcp/tool-result.ts';
import type { CallerView } from '../registry/caller-view.ts';
import type { GatewayRegistry } from '../registry/gateway-registry.ts';
import { advertisedTool, type CatalogTool } from '../registry/tool-catalog.ts';
import type { RouteCall } from '../routing/route-call.ts';
import { createGetToolSchema, GetToolSchemaInput } from '../tools/get-tool-schema.ts';
import { createInvokeTool, InvokeToolInput } from '../tools/invoke-tool.ts';
import { createStatefulRouter, InvokeStatefulToolInput } from '../tools/invoke-stateful-tool.ts';
import { createSearchTools, SearchToolsInput, routerFor, summarizeDescription } from '../tools/search-tools.ts';
import { createValidateTaskResult, ValidateTaskResultInput } from '../tools/validate-task-result.ts';
import type { GatewayHandlers, GatewayRequestContext } from './gateway-tool-server.ts';

export interface MetaToolDeps {
  readonly registry: GatewayRegistry;
  readonly view: CallerView;
  readonly routeCall: RouteCall;
  readonly stateful: ReturnType<typeof createStatefulRouter>;
  readonly validate: ReturnType<typeof createValidateTaskResult>;
}

function jsonSchema(schema: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  if (!json.type) json.type = 'object';
  return json as Tool['inputSchema'];
}

interface MetaTool {
  readonly tool: Omit<Tool, 'description'> & { description: string | ((ctx: GatewayRequestContext) => Promise<string>) };
  readonly schema: z.ZodType;
  run(args: any, ctx: GatewayRequestContext): Promise<CallToolResult>;
}

/** One line per toolset the caller can reach, so `search_tools` itself says what is behind it. */
async function summarizeToolsets(view: CallerView, ctx: GatewayRequestContext): Promise<string> {
  const visible = await view.visibleTools(ctx.session, undefined);
  const sets = new Map<string, { categories: string[]; count: number }>();
  for (const t of visible) {
    const s = sets.get(t.upstream.name) ?? { categories: t.upstream.categories, count: 0 };
    s.count += 1;
    sets.set(t.upstream.name, s);
  }
  if (sets.size === 0) return 'No toolsets are available to you yet.';
  return [...sets.entries()].map(([id, s]) => `${id} (${s.categories.join(', ')}; ${s.count} tools)`).join('; ');
}

/**
 * The root endpoint's five meta-tools (seed 003) and the direct endpoint's bridged tools, on one
 * dispatcher. Root `tools/list` stays compact; the full catalog is reachable through search,
 * the toolset resources, and the direct endpoint.
 */
export function createGatewayHandlers(deps: MetaToolDeps): GatewayHandlers {
  const { registry, view, routeCall, stateful } = deps;
  const search = createSearchTools({ registry, view });
  const schema = createGetToolSchema({ registry, view });
  const invoke = createInvokeTool({ view, routeCall });

  const meta: MetaTool[] = [
    {
      tool: {
        name: 'search_tools',
        description: async (ctx) =>
          `Start here. Intent-first search over every tool behind this gateway (names, descriptions, schemas). Describe the user's goal in plain words ("best stablecoin yield on base"); returns at most three ranked toolsets and a page of tools, each with its router and health. Behind it: ${await summarizeToolsets(view, ctx)}.`,
        inputSchema: jsonSchema(SearchToolsInput),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      schema: SearchToolsInput,
      run: search,
    },
    {
      tool: {
        name: 'get_tool_schema',
        description: 'The full input/output schema, annotations, cost and router of one tool named by search_tools. Call it before invoking a tool you have not used.',
        inputSchema: jsonSchema(GetToolSchemaInput),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      schema: GetToolSchemaInput,
      run: schema,
    },
    {
      tool: {
        name: 'invoke_tool',
        description: 'Runs a read-only tool (router "invoke_tool") with bounded arguments. The result carries a _gateway receipt; copy it into your task record. Tools that may change state are refused: use invoke_stateful_tool.',
        inputSchema: jsonSchema(InvokeToolInput),
        annotations: { readOnlyHint: false, openWorldHint: true },
      },
      schema: InvokeToolInput,
      run: invoke,
    },
    {
      tool: {
        name: 'invoke_stateful_tool',
        description: 'Runs a tool that may change state, only with the account holder\'s approval. First call {tool, arguments}: returns {approval_required, approval_id, confirm_url, expires_at}. After the person approves in the web app, call {approval_id}: the stored arguments run exactly once. Proposal-only tools (propose_*) may run at once by policy.',
        inputSchema: jsonSchema(InvokeStatefulToolInput),
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      },
      schema: InvokeStatefulToolInput,
      run: (args, ctx) => stateful.invokeStatefulTool(args, ctx),
    },
    {
      tool: {
        name: 'validate_task_result',
        description: 'Checks a finished task: every receipt exists, is yours and matches its hashes and signature; claims[] ({statement, receipt_ids}) cite proven receipts; coverage[] ({phase, status: covered|partial|gap, receipt_ids?, note?}) is well formed.',
        inputSchema: jsonSchema(ValidateTaskResultInput),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      schema: ValidateTaskResultInput,
      run: deps.validate,
    },
  ];
  const metaByName = new Map(meta.map((m) => [m.tool.name, m]));

  async function callBridged(tool: CatalogTool, args: Record<string, unknown>, ctx: GatewayRequestContext): Promise<CallToolResult> {
    if (tool.readOnly) return (await routeCall({ session: ctx.session, tool, args, taskId: null, signal: ctx.signal })).result;
    return stateful.requestOrAutoRun(ctx.session, tool, args, null, ctx.signal);
  }

  function toolsetUri(id: string): string {
    return `gateway://toolsets/${encodeURIComponent(id)}`;
  }

  return {
    async listTools(ctx) {
      if (ctx.scope !== undefined) return (await view.visibleTools(ctx.session, ctx.scope)).map(advertisedTool);
      return Promise.all(meta.map(async (m) => ({ ...m.tool, description: typeof m.tool.description === 'string' ? m.tool.description : await m.tool.description(ctx) })));
    },
    async callTool(name, args, ctx) {
      if (ctx.scope !== undefined) return callBridged(await view.resolveTool(ctx.session, name, ctx.scope), args, ctx);
      const m = metaByName.get(name);
      if (!m) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(name).slice(0, 100)}`);
      const parsed = m.schema.safeParse(args);
      if (!parsed.success) return codedErrorResult('invalid_params', describeZodError(parsed.error));
      return m.run(parsed.data, ctx);
    },
    async listResources(ctx) {
      const visible = await view.visibleTools(ctx.session, undefined);
      const ids = [...new Set(visible.map((t) => t.upstream.name))];
      const index: Resource = { uri: 'gateway://toolsets', name: 'toolsets', title: 'Toolsets index', mimeType: 'application/json', description: 'Compact index of the toolsets you can use.' };
      return [index, ...ids.map((id) => ({ uri: toolsetUri(id), name: id, mimeType: 'application/json' }))];
    },
    listResourceTemplates() {
      return [{ uriTemplate: 'gateway://toolsets/{id}', name: 'toolset', mimeType: 'application/json', description: 'One toolset: its tools, routers and health.' }];
    },
    async readResource(uri, ctx) {
      const visible = await view.visibleTools(ctx.session, undefined);
      if (uri === 'gateway://toolsets') {
        const sets = new Map<string, CatalogTool[]>();
        for (const t of visible) sets.set(t.upstream.name, [...(sets.get(t.upstream.name) ?? []), t]);
        const body = [...sets.entries()].map(([id, tools]) => ({
          id,
          uri: toolsetUri(id),
          prefix: tools[0]!.upstream.prefix,
          categories: tools[0]!.upstream.categories,
          tier: tools[0]!.upstream.tier,
          state: registry.health(id),
          tool_count: tools.length,
          tools: tools.slice(0, 8).map((t) => t.name),
        }));
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ toolsets: body }) }] };
      }
      const match = /^gateway:\/\/toolsets\/([^/]+)$/.exec(uri);
      const id = match ? decodeURIComponent(match[1]!) : undefined;
      const tools = visible.filter((t) => t.upstream.name === id);
      // A toolset outside the caller's policy reads exactly like one that does not exist.
      if (!id || tools.length === 0) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri.slice(0, 200)}`);
      const u = tools[0]!.upstream;
      const body = {
        id,
        prefix: u.prefix,
        categories: u.categories,
        tier: u.tier,
        cost_micro_usdc: u.costMicroUsdc,
        state: registry.health(id),
        tools: tools.map((t) => ({ name: t.name, description: summarizeDescription(t.definition.description), read_only: t.readOnly, router: routerFor(t) })),
      };
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
    },
  };
}
