import { sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { sqlList } from './sql-list.ts';

export interface EntityRow {
  readonly id: string;
  readonly documentId: string;
  readonly roomId: string;
  readonly roomName: string;
  readonly documentName: string;
  readonly kind: string;
  readonly key: string;
  readonly label: string;
  readonly attrs: Record<string, unknown>;
  readonly mentionCount: number;
}

export interface RelationRow {
  readonly id: string;
  readonly kind: string;
  readonly direction: 'out' | 'in';
  readonly otherId: string | null;
  readonly otherKind: string | null;
  readonly otherLabel: string | null;
  readonly startOffset: number;
  readonly endOffset: number;
  readonly weight: number;
}

export interface EntityFilter {
  readonly kind?: string;
  readonly query?: string;
  readonly documentIds?: readonly string[];
}

const ENTITY_COLUMNS = sql`
  e.id::text as id, e.document_id::text as "documentId", e.room_id::text as "roomId", r.name as "roomName",
  d.name as "documentName", e.kind, e.key, e.label, e.attrs, e.mention_count as "mentionCount"`;

export function createGraphStore(handle: DbHandle) {
  return {
    async entities(roomIds: readonly string[], filter: EntityFilter, limit: number, offset: number): Promise<EntityRow[]> {
      const like = filter.query ? `%${filter.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
      return handle.rows<EntityRow>(sql`
        select ${ENTITY_COLUMNS}
        from kb_entities e join kb_documents d on d.id = e.document_id join kb_rooms r on r.id = e.room_id
        where e.room_id in ${sqlList(roomIds)}
          ${filter.kind ? sql`and e.kind = ${filter.kind}` : sql``}
          ${like ? sql`and (e.key like ${like} or lower(e.label) like ${like})` : sql``}
          ${filter.documentIds ? sql`and e.document_id in ${sqlList(filter.documentIds)}` : sql``}
        order by e.mention_count desc, e.id limit ${limit} offset ${offset}`);
    },

    async entity(entityId: string, roomIds: readonly string[]): Promise<EntityRow | undefined> {
      const rows = await handle.rows<EntityRow>(sql`
        select ${ENTITY_COLUMNS}
        from kb_entities e join kb_documents d on d.id = e.document_id join kb_rooms r on r.id = e.room_id
        where e.id = ${entityId} and e.room_id in ${sqlList(roomIds)}`);
      return rows[0];
    },

    async mentions(entityIds: readonly string[], perEntity: number): Promise<Array<{ entityId: string; startOffset: number; endOffset: number }>> {
      if (!entityIds.length) return [];
      return handle.rows(sql`
        select entity_id::text as "entityId", start_offset as "startOffset", end_offset as "endOffset" from (
          select m.*, row_number() over (partition by m.entity_id order by m.start_offset) as rn
          from kb_mentions m where m.entity_id in ${sqlList(entityIds)}) x
        where rn <= ${perEntity} order by entity_id, start_offset`);
    },

    /** Both directions of an entity's edges, strongest first. */
    async relations(entityId: string, limit: number, offset: number): Promise<RelationRow[]> {
      return handle.rows<RelationRow>(sql`
        select * from (
          select rel.id::text as id, rel.kind, 'out' as direction, o.id::text as "otherId", o.kind as "otherKind", o.label as "otherLabel",
                 rel.start_offset as "startOffset", rel.end_offset as "endOffset", rel.weight
          from kb_relations rel left join kb_entities o on o.id = rel.to_entity where rel.from_entity = ${entityId}
          union all
          select rel.id::text, rel.kind, 'in', o.id::text, o.kind, o.label, rel.start_offset, rel.end_offset, rel.weight
          from kb_relations rel join kb_entities o on o.id = rel.from_entity where rel.to_entity = ${entityId}
        ) x order by (kind = 'defines') desc, weight desc, id limit ${limit} offset ${offset}`);
    },

    /** Entity counts per kind for each graph (document) on a page of `graphs`. */
    async kindCounts(documentIds: readonly string[]): Promise<Array<{ documentId: string; kind: string; count: number }>> {
      if (!documentIds.length) return [];
      return handle.rows(sql`
        select document_id::text as "documentId", kind, count(*)::int as count from kb_entities
        where document_id in ${sqlList(documentIds)} group by document_id, kind order by document_id, kind`);
    },
  };
}

export type GraphStore = ReturnType<typeof createGraphStore>;
