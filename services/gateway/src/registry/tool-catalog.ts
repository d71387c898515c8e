import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { authorizeTool, type AccessPolicy } from '../domain/access-policy.ts';
import { isReadOnly, type PinnedDefinition } from '../domain/tool-definition.ts';
import { buildSearchIndex, schemaSearchText, type SearchIndex } from '../domain/tool-ranking.ts';
import type { ToolRow } from '../store/tool-store.ts';
import type { UpstreamRow } from '../store/upstream-store.ts';

/** One callable tool as the gateway advertises it. Only `active` (pinned, unquarantined) tools exist here. */
export interface CatalogTool {
  readonly name: string;
  readonly upstream: UpstreamRow;
  readonly upstreamTool: string;
  readonly definition: PinnedDefinition;
  readonly definitionSha256: string;
  readonly readOnly: boolean;
  readonly cacheTtlSeconds: number;
}

export interface ToolCatalog {
  readonly tools: readonly CatalogTool[];
  readonly byName: ReadonlyMap<string, CatalogTool>;
  readonly upstreams: ReadonlyMap<string, UpstreamRow>;
  readonly index: SearchIndex;
  readonly quarantinedCount: number;
}

export function buildToolCatalog(upstreams: readonly UpstreamRow[], rows: readonly ToolRow[]): ToolCatalog {
  const byUpstream = new Map(upstreams.map((u) => [u.name, u]));
  const tools: CatalogTool[] = [];
  let quarantinedCount = 0;
  for (const row of rows) {
    if (row.status === 'quarantined') quarantinedCount += 1;
    // Quarantined and removed tools are neither listed nor callable: absent from the catalog.
    if (row.status !== 'active') continue;
    const upstream = byUpstream.get(row.upstream);
    if (!upstream) continue;
    const definition = row.definition as unknown as PinnedDefinition;
    const ttls = upstream.cacheTtls ?? {};
    tools.push({
      name: row.advertisedName,
      upstream,
      upstreamTool: row.name,
      definition,
      definitionSha256: row.definitionSha256,
      readOnly: isReadOnly(definition),
      cacheTtlSeconds: ttls[row.name] ?? ttls['*'] ?? 0,
    });
  }
  const index = buildSearchIndex(
    tools.map((t) => ({
      id: t.name,
      name: `${t.upstreamTool} ${t.definition.title ?? ''}`,
      description: `${t.definition.description ?? ''} ${t.upstream.categories.join(' ')}`,
      schemaText: schemaSearchText(t.definition.inputSchema),
    })),
  );
  return { tools, byName: new Map(tools.map((t) => [t.name, t])), upstreams: byUpstream, index, quarantinedCount };
}

/** The single authorization key for listing *and* calling (STYLE 15). */
export function callerMayUse(policy: AccessPolicy, tool: CatalogTool): boolean {
  return authorizeTool(policy, { upstreamCategories: tool.upstream.categories, tier: tool.upstream.tier });
}

/** A tool as the direct endpoint's `tools/list` shows it: the upstream's definition under the advertised name. */
export function advertisedTool(tool: CatalogTool): Tool {
  const d = tool.definition;
  return {
    name: tool.name,
    ...(d.title ? { title: d.title } : {}),
    description: d.description ?? '',
    inputSchema: d.inputSchema as Tool['inputSchema'],
    ...(d.outputSchema ? { outputSchema: d.outputSchema as Tool['outputSchema'] } : {}),
    ...(d.annotations ? { annotations: d.annotations } : {}),
  };
}
