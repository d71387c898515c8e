import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { decidePin, definitionSha256, type PinnedDefinition } from '../domain/tool-definition.ts';
import { gwTools } from './schema.ts';

export type ToolRow = typeof gwTools.$inferSelect;

export async function listTools(db: DbHandle): Promise<ToolRow[]> {
  return db.db.select().from(gwTools).orderBy(gwTools.upstream, gwTools.name);
}

export interface SyncOutcome {
  readonly inserted: string[];
  readonly quarantined: string[];
  readonly removed: string[];
}

/**
 * Applies one `tools/list` to the registry under the pinning rule (`decidePin`). The pinned
 * definition is never overwritten here: a changed one waits in `pending_*` for an admin.
 */
export async function syncDiscoveredTools(
  db: DbHandle,
  upstream: string,
  seen: ReadonlyArray<{ definition: PinnedDefinition; advertisedName: string }>,
): Promise<SyncOutcome> {
  const existing = new Map((await db.db.select().from(gwTools).where(eq(gwTools.upstream, upstream))).map((r) => [r.name, r]));
  const outcome: SyncOutcome = { inserted: [], quarantined: [], removed: [] };
  for (const { definition, advertisedName } of seen) {
    const sha = definitionSha256(definition);
    const row = existing.get(definition.name);
    const decision = decidePin(row && { sha256: row.definitionSha256, status: row.status === 'removed' ? 'active' : row.status }, sha);
    const definitionJson = definition as unknown as Record<string, unknown>;
    switch (decision.action) {
      case 'insert':
        await db.db.insert(gwTools).values({ upstream, name: definition.name, advertisedName, definition: definitionJson, definitionSha256: sha });
        outcome.inserted.push(definition.name);
        break;
      case 'unchanged':
        if (row?.status === 'removed') {
          await db.db.update(gwTools).set({ status: 'active', updatedAt: new Date() }).where(and(eq(gwTools.upstream, upstream), eq(gwTools.name, definition.name)));
        }
        break;
      case 'restore':
        await db.db
          .update(gwTools)
          .set({ status: 'active', pendingDefinition: null, pendingSha256: null, updatedAt: new Date() })
          .where(and(eq(gwTools.upstream, upstream), eq(gwTools.name, definition.name)));
        break;
      case 'quarantine':
        if (row?.pendingSha256 !== decision.pendingSha256 || row.status !== 'quarantined') {
          await db.db
            .update(gwTools)
            .set({ status: 'quarantined', pendingDefinition: definitionJson, pendingSha256: decision.pendingSha256, updatedAt: new Date() })
            .where(and(eq(gwTools.upstream, upstream), eq(gwTools.name, definition.name)));
        }
        outcome.quarantined.push(definition.name);
        break;
    }
  }
  const seenNames = seen.map((s) => s.definition.name);
  const gone = await db.db
    .update(gwTools)
    .set({ status: 'removed', updatedAt: new Date() })
    .where(and(eq(gwTools.upstream, upstream), sql`${gwTools.status} <> 'removed'`, seenNames.length ? notInArray(gwTools.name, seenNames) : sql`true`))
    .returning({ name: gwTools.name });
  outcome.removed.push(...gone.map((g) => g.name));
  return outcome;
}

/**
 * An admin approves the pending definition: it becomes the pinned one. Bound to the exact
 * pending hash the admin saw, so a second rewrite in between is not approved by accident.
 */
export async function approvePendingDefinition(db: DbHandle, upstream: string, name: string, pendingSha256: string): Promise<boolean> {
  const rows = await db.db
    .update(gwTools)
    .set({
      status: 'active',
      definition: sql`${gwTools.pendingDefinition}`,
      definitionSha256: sql`${gwTools.pendingSha256}`,
      pendingDefinition: null,
      pendingSha256: null,
      updatedAt: new Date(),
    })
    .where(and(eq(gwTools.upstream, upstream), eq(gwTools.name, name), eq(gwTools.status, 'quarantined'), eq(gwTools.pendingSha256, pendingSha256)))
    .returning({ name: gwTools.name });
  return rows.length > 0;
}
