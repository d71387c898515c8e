import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { jsonToolResult } from '../../../../shared/mcp/tool-result.ts';
import type { GatewayRequestContext } from '../mcp/gateway-tool-server.ts';
import type { CallerView } from '../registry/caller-view.ts';
import type { GatewayRegistry } from '../registry/gateway-registry.ts';
import { routerFor } from './search-tools.ts';

export const GetToolSchemaInput = z.strictObject({ tool: z.string().min(1).max(100) });

/** `get_tool_schema`: the full pinned definition of one tool, and which router calls it. */
export function createGetToolSchema(deps: { registry: GatewayRegistry; view: CallerView }) {
  return async function getToolSchema(args: z.infer<typeof GetToolSchemaInput>, ctx: GatewayRequestContext): Promise<CallToolResult> {
    const tool = await deps.view.resolveTool(ctx.session, args.tool);
    const d = tool.definition;
    return jsonToolResult({
      name: tool.name,
      toolset: tool.upstream.name,
      upstream_tool: tool.upstreamTool,
      ...(d.title ? { title: d.title } : {}),
      description: d.description ?? '',
      input_schema: d.inputSchema,
      ...(d.outputSchema ? { output_schema: d.outputSchema } : {}),
      annotations: d.annotations ?? {},
      read_only: tool.readOnly,
      router: routerFor(tool),
      tier: tool.upstream.tier,
      cost_micro_usdc: tool.upstream.costMicroUsdc,
      timeout_ms: tool.upstream.timeoutMs,
      cache_ttl_seconds: tool.readOnly ? tool.cacheTtlSeconds : 0,
      definition_sha256: tool.definitionSha256,
      state: deps.registry.health(tool.upstream.name),
    });
  };
}
