import { sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { sqlList } from './sql-list.ts';
import { kbSetShares, kbSets } from './schema.ts';

export interface SetRow {
  readonly id: string;
  readonly jobId: string;
  readonly ownerId: string;
  readonly query: string;
  readonly mode: string;
  readonly scope: Record<string, unknown>;
  readonly status: 'running' | 'done' | 'failed';
  readonly error: string | null;
  readonly documents: number | null;
  readonly occurrences: number | null;
  readonly createdAt: Date;
  readonly frozenAt: Date | null;
  /** `owner` reads members with their rooms; `shared` reads them only as `source: {set}`. */
  readonly access: 'owner' | 'shared';
}

export interface SetMemberRow {
  readonly documentId: string;
  readonly roomId: string;
  readonly roomName: string;
  readonly name: string;
  readonly occurrences: number;
}

const SET_COLUMNS = sql`
  s.id::text as id, s.job_id::text as "jobId", s.owner_id::text as "ownerId", s.query, s.mode, s.scope, s.status, s.error,
  s.documents, s.occurrences, s.created_at as "createdAt", s.frozen_at as "frozenAt"`;

/** A set is visible to its owner and to members of any room it was shared into. */
function visible(userId: string, roomIds: readonly string[]) {
  return sql`(s.owner_id = ${userId} or exists (select 1 from kb_set_shares sh where sh.set_id = s.id and sh.room_id in ${sqlList(roomIds)}))`;
}

export function createSetsStore(handle: DbHandle) {
  const { db } = handle;
  return {
    async create(input: { ownerId: string; query: string; mode: string; scope: Record<string, unknown> }): Promise<{ id: string; jobId: string }> {
      const [row] = await db
        .insert(kbSets)
        .values({ ownerId: input.ownerId, query: input.query, mode: input.mode, scope: input.scope, status: 'running' })
        .returning({ id: kbSets.id, jobId: kbSets.jobId });
      return row;
    },

    async share(setId: string, roomIds: readonly string[], sharedBy: string): Promise<void> {
      if (!roomIds.length) return;
      await db.insert(kbSetShares).values(roomIds.map((roomId) => ({ setId, roomId, sharedBy }))).onConflictDoNothing();
    },

    async markFailed(setId: string, error: string): Promise<void> {
      await handle.rows(sql`update kb_sets set status = 'failed', error = ${error.slice(0, 300)} where id = ${setId} and status = 'running'`);
    },

    async byJob(jobId: string, userId: string, roomIds: readonly string[]): Promise<SetRow | undefined> {
      const rows = await handle.rows<SetRow>(sql`
        select ${SET_COLUMNS}, case when s.owner_id = ${userId} then 'owner' else 'shared' end as access
        from kb_sets s where s.job_id = ${jobId} and ${visible(userId, roomIds)}`);
      return rows[0];
    },

    async byId(setId: string, userId: string, roomIds: readonly string[]): Promise<SetRow | undefined> {
      const rows = await handle.rows<SetRow>(sql`
        select ${SET_COLUMNS}, case when s.owner_id = ${userId} then 'owner' else 'shared' end as access
        from kb_sets s where s.id = ${setId} and ${visible(userId, roomIds)}`);
      return rows[0];
    },

    async list(userId: string, roomIds: readonly string[], limit: number, offset: number): Promise<SetRow[]> {
      return handle.rows<SetRow>(sql`
        select ${SET_COLUMNS}, case when s.owner_id = ${userId} then 'owner' else 'shared' end as access
        from kb_sets s where ${visible(userId, roomIds)} order by s.created_at desc, s.id limit ${limit} offset ${offset}`);
    },

    async members(setId: string, limit: number, offset: number): Promise<SetMemberRow[]> {
      return handle.rows<SetMemberRow>(sql`
        select m.document_id::text as "documentId", m.room_id::text as "roomId", r.name as "roomName", d.name, m.occurrences
        from kb_set_members m join kb_documents d on d.id = m.document_id join kb_rooms r on r.id = m.room_id
        where m.set_id = ${setId} order by d.name, d.id limit ${limit} offset ${offset}`);
    },
  };
}

export type SetsStore = ReturnType<typeof createSetsStore>;
