import { eq, sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { gwUpstreams, type UpstreamAuth } from './schema.ts';

export type UpstreamRow = typeof gwUpstreams.$inferSelect;

export interface UpstreamInput {
  readonly name: string;
  readonly url: string;
  readonly prefix: string;
  readonly categories: readonly string[];
  readonly tier: string;
  readonly costMicroUsdc: number;
  readonly timeoutMs: number;
  readonly maxConcurrent?: number;
  readonly cacheTtls: Record<string, number>;
  readonly auth: UpstreamAuth;
  readonly autoApprove: readonly string[];
  readonly source: 'config' | 'cli' | 'web';
}

/** Every replica LISTENs here and reloads its catalog, so registry edits apply without a restart. */
export const REGISTRY_CHANNEL = 'gw_registry';

export async function notifyRegistryChanged(db: DbHandle): Promise<void> {
  await db.rows(sql`select pg_notify(${REGISTRY_CHANNEL}, '')`);
}

export async function listUpstreams(db: DbHandle): Promise<UpstreamRow[]> {
  return db.db.select().from(gwUpstreams).orderBy(gwUpstreams.name);
}

export async function findUpstream(db: DbHandle, name: string): Promise<UpstreamRow | undefined> {
  const [row] = await db.db.select().from(gwUpstreams).where(eq(gwUpstreams.name, name));
  return row;
}

function values(input: UpstreamInput) {
  return {
    name: input.name,
    url: input.url,
    prefix: input.prefix,
    categories: [...input.categories],
    tier: input.tier,
    costMicroUsdc: input.costMicroUsdc,
    timeoutMs: input.timeoutMs,
    maxConcurrent: input.maxConcurrent ?? 32,
    cacheTtls: input.cacheTtls,
    auth: input.auth,
    autoApprove: [...input.autoApprove],
    source: input.source,
  };
}

/** Adds or replaces an upstream; a changed URL or prefix asks for re-discovery. */
export async function upsertUpstream(db: DbHandle, input: UpstreamInput): Promise<void> {
  const v = values(input);
  await db.db
    .insert(gwUpstreams)
    .values({ ...v, refreshRequestedAt: new Date() })
    .onConflictDoUpdate({ target: gwUpstreams.name, set: { ...v, refreshRequestedAt: new Date(), updatedAt: new Date() } });
  await notifyRegistryChanged(db);
}

/** Config-file seeding never overwrites an upstream someone added or edited by hand. */
export async function seedUpstream(db: DbHandle, input: UpstreamInput): Promise<void> {
  const v = values(input);
  await db.db
    .insert(gwUpstreams)
    .values({ ...v, refreshRequestedAt: new Date() })
    .onConflictDoUpdate({ target: gwUpstreams.name, set: { ...v, updatedAt: new Date() }, setWhere: sql`${gwUpstreams.source} = 'config'` });
}

export async function removeUpstream(db: DbHandle, name: string): Promise<boolean> {
  const removed = await db.db.delete(gwUpstreams).where(eq(gwUpstreams.name, name)).returning({ name: gwUpstreams.name });
  if (removed.length) await notifyRegistryChanged(db);
  return removed.length > 0;
}

export async function requestRefresh(db: DbHandle, name?: string): Promise<number> {
  const rows = await db.db
    .update(gwUpstreams)
    .set({ refreshRequestedAt: new Date() })
    .where(name ? eq(gwUpstreams.name, name) : sql`true`)
    .returning({ name: gwUpstreams.name });
  if (rows.length) await notifyRegistryChanged(db);
  return rows.length;
}

export async function recordDiscovery(db: DbHandle, name: string, outcome: { error: string | null; requestedBefore: Date | null }): Promise<void> {
  await db.db
    .update(gwUpstreams)
    .set({
      discoveredAt: outcome.error ? sql`${gwUpstreams.discoveredAt}` : new Date(),
      lastError: outcome.error,
      // Clear the request only if nobody asked again while we were discovering.
      // An ISO string with an explicit cast: postgres.js cannot bind a bare Date inside raw SQL.
      refreshRequestedAt: sql`case when ${gwUpstreams.refreshRequestedAt} <= ${(outcome.requestedBefore ?? new Date(0)).toISOString()}::timestamptz then null else ${gwUpstreams.refreshRequestedAt} end`,
    })
    .where(eq(gwUpstreams.name, name));
}

/** A cheap fingerprint of the registry: any replica polling it notices any change. */
export async function registryFingerprint(db: DbHandle): Promise<string> {
  const [row] = await db.rows<{ f: string }>(sql`
    select concat_ws('|',
      (select count(*) from gw_upstreams), (select max(updated_at) from gw_upstreams), (select max(discovered_at) from gw_upstreams),
      (select max(refresh_requested_at) from gw_upstreams),
      (select count(*) from gw_tools), (select max(updated_at) from gw_tools)) as f`);
  return String(row?.f ?? '');
}
