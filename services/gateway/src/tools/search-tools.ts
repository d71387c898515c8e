import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { jsonToolResult } from '../../../../shared/mcp/tool-result.ts';
import { rankDocuments } from '../domain/tool-ranking.ts';
import type { GatewayRequestContext } from '../mcp/gateway-tool-server.ts';
import type { CallerView } from '../registry/caller-view.ts';
import type { GatewayRegistry } from '../registry/gateway-registry.ts';
import type { CatalogTool } from '../registry/tool-catalog.ts';
import { decodeCursor, encodeCursor } from './paging-cursor.ts';

export const SearchToolsInput = z.strictObject({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(50).default(10),
  cursor: z.string().max(200).optional(),
  toolset_limit: z.number().int().min(1).max(10).default(3),
  toolset_cursor: z.string().max(200).optional(),
});

export function routerFor(tool: CatalogTool): 'invoke_tool' | 'invoke_stateful_tool' {
  return tool.readOnly ? 'invoke_tool' : 'invoke_stateful_tool';
}

export function summarizeDescription(text: string | undefined, max = 200): string {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/**
 * `search_tools`: intent in, ranked tools and toolsets out (seed 003 step 2). Tools and toolsets
 * page separately; by default at most three toolsets come back. Hits carry the upstream's
 * health so an agent can steer around a degraded provider before calling it.
 */
export function createSearchTools(deps: { registry: GatewayRegistry; view: CallerView }) {
  return async function searchTools(args: z.infer<typeof SearchToolsInput>, ctx: GatewayRequestContext): Promise<CallToolResult> {
    const visible = await deps.view.visibleTools(ctx.session, undefined);
    const allowed = new Set(visible.map((t) => t.name));
    const catalog = deps.registry.catalog();
    const hits = rankDocuments(catalog.index, args.query, (doc) => allowed.has(catalog.index.docs[doc]!.id));
    const toolOffset = decodeCursor(args.query, args.cursor);
    const toolsetOffset = decodeCursor(args.query, args.toolset_cursor);
    if (toolOffset === null || toolsetOffset === null) throw new McpError(ErrorCode.InvalidParams, 'cursor: not a cursor search_tools issued for this query');

    const ranked = hits.map((h) => ({ tool: catalog.byName.get(catalog.index.docs[h.doc]!.id)!, score: h.score })).filter((h) => h.tool);
    const toolPage = ranked.slice(toolOffset, toolOffset + args.limit);

    const sets = new Map<string, { score: number; tools: CatalogTool[] }>();
    for (const h of ranked) {
      const s = sets.get(h.tool.upstream.name);
      if (!s) sets.set(h.tool.upstream.name, { score: h.score, tools: [h.tool] });
      else {
        if (s.tools.length === 1) s.score += 0.25 * h.score;
        s.tools.push(h.tool);
      }
    }
    const rankedSets = [...sets.entries()].sort((a, b) => b[1].score - a[1].score || a[0].localeCompare(b[0]));
    const setPage = rankedSets.slice(toolsetOffset, toolsetOffset + args.toolset_limit);
    const toolCount = new Map<string, number>();
    for (const t of visible) toolCount.set(t.upstream.name, (toolCount.get(t.upstream.name) ?? 0) + 1);

    return jsonToolResult({
      query: args.query,
      toolsets: setPage.map(([id, s]) => {
        const u = catalog.upstreams.get(id)!;
        return {
          id,
          resource: `gateway://toolsets/${id}`,
          prefix: u.prefix,
          categories: u.categories,
          tier: u.tier,
          state: deps.registry.health(id),
          tool_count: toolCount.get(id) ?? 0,
          best_tools: s.tools.slice(0, 3).map((t) => t.name),
          score: Number(s.score.toFixed(3)),
        };
      }),
      ...(toolsetOffset + args.toolset_limit < rankedSets.length ? { next_toolset_cursor: encodeCursor(args.query, toolsetOffset + args.toolset_limit) } : {}),
      tools: toolPage.map(({ tool, score }) => ({
        name: tool.name,
        toolset: tool.upstream.name,
        description: summarizeDescription(tool.definition.description),
        read_only: tool.readOnly,
        router: routerFor(tool),
        tier: tool.upstream.tier,
        cost_micro_usdc: tool.upstream.costMicroUsdc,
        state: deps.registry.health(tool.upstream.name),
        score: Number(score.toFixed(3)),
      })),
      ...(toolOffset + args.limit < ranked.length ? { next_cursor: encodeCursor(args.query, toolOffset + args.limit) } : {}),
      total_tools: ranked.length,
    });
  };
}
