import { eq, sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { SourceName } from '../domain/market-snapshot.ts';
import { researchSnapshots } from './schema.ts';

export interface StoredSnapshot {
  readonly source: SourceName;
  readonly asOf: Date | null;
  readonly fetchedAt: Date;
  readonly origin: 'fetch' | 'import';
  readonly recordCount: number;
  /**
   * The payload as JSON text, both ways: `save` never needs an object copy of it, and a restore
   * can stream the pools out of it instead of parsing a tree several times the text's size.
   */
  readonly payloadJson: string;
}

export type SnapshotToSave = StoredSnapshot;

export interface SnapshotStore {
  save(snapshot: SnapshotToSave): Promise<void>;
  load(source: SourceName): Promise<StoredSnapshot | null>;
  /** Only the stamps, to learn cheaply whether a sibling replica holds something newer. */
  fetchedAtOf(source: SourceName): Promise<Date | null>;
}

export function createSnapshotStore(handle: DbHandle): SnapshotStore {
  const { db } = handle;
  return {
    async save(s) {
      // The JSON text goes to Postgres as one text parameter cast to jsonb (drizzle's jsonb column
      // would JSON.stringify an object itself, which needs the object copy we avoid building).
      const row = { source: s.source, asOf: s.asOf, fetchedAt: s.fetchedAt, origin: s.origin, recordCount: s.recordCount, payload: sql`${s.payloadJson}::jsonb` };
      // Last writer wins only if it is newer: a slow replica finishing an older fetch must not
      // overwrite a fresher snapshot another replica already stored.
      await db
        .insert(researchSnapshots)
        .values(row)
        .onConflictDoUpdate({
          target: researchSnapshots.source,
          set: { asOf: row.asOf, fetchedAt: row.fetchedAt, origin: row.origin, recordCount: row.recordCount, payload: sql`excluded.payload` },
          setWhere: sql`${researchSnapshots.fetchedAt} <= excluded.fetched_at`,
        });
    },
    async load(source) {
      const rows = await db
        .select({ asOf: researchSnapshots.asOf, fetchedAt: researchSnapshots.fetchedAt, origin: researchSnapshots.origin, recordCount: researchSnapshots.recordCount, payloadJson: sql<string>`${researchSnapshots.payload}::text` })
        .from(researchSnapshots)
        .where(eq(researchSnapshots.source, source))
        .limit(1);
      const r = rows[0];
      if (!r) return null;
      return { source, asOf: r.asOf, fetchedAt: r.fetchedAt, origin: r.origin === 'import' ? 'import' : 'fetch', recordCount: r.recordCount, payloadJson: r.payloadJson };
    },
    async fetchedAtOf(source) {
      const rows = await db.select({ fetchedAt: researchSnapshots.fetchedAt }).from(researchSnapshots).where(eq(researchSnapshots.source, source)).limit(1);
      return rows[0]?.fetchedAt ?? null;
    },
  };
}
