import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { pinnedDefinitionOf } from '../domain/tool-definition.ts';
import { advertisedToolName } from '../domain/tool-name.ts';
import { syncDiscoveredTools, type SyncOutcome } from '../store/tool-store.ts';
import type { UpstreamRow } from '../store/upstream-store.ts';

/** Applies one upstream's `tools/list` to the registry: names by (prefix, tool), definitions pinned. */
export async function applyDiscoveredTools(db: DbHandle, upstream: UpstreamRow, tools: readonly Tool[]): Promise<SyncOutcome> {
  const seen = new Map<string, Tool>();
  // An upstream listing one name twice is ambiguous: keep neither rather than guess.
  const dupes = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) dupes.add(t.name);
    else seen.set(t.name, t);
  }
  for (const d of dupes) seen.delete(d);
  return syncDiscoveredTools(
    db,
    upstream.name,
    [...seen.values()].map((t) => ({ definition: pinnedDefinitionOf(t), advertisedName: advertisedToolName(upstream.prefix, t.name) })),
  );
}
