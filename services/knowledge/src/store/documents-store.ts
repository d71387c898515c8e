import { and, eq, sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Chunk } from '../domain/chunk-text.ts';
import type { ExtractedGraph } from '../domain/extract-entities.ts';
import { CHUNK_POSITION_STRIDE, exactTokenPostings } from '../domain/exact-tokens.ts';
import { encodeFollowers, FOLLOWER_MARK } from '../domain/follower-list.ts';
import { sqlList } from './sql-list.ts';
import { kbBlobs, kbDocuments, kbEntities } from './schema.ts';

export interface DocumentRow {
  readonly id: string;
  readonly roomId: string;
  readonly roomName: string;
  readonly name: string;
  readonly mediaType: string;
  readonly sha256: string;
  readonly status: 'indexing' | 'ready' | 'failed';
  readonly error: string | null;
  readonly charCount: number;
  readonly chunkCount: number;
  readonly entityCount: number;
  readonly relationCount: number;
  readonly sizeBytes: number;
  readonly createdAt: Date;
  readonly indexedAt: Date | null;
}

const INSERT_BATCH_ROWS = 1000;

function batches<T>(rows: readonly T[], size = INSERT_BATCH_ROWS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

const DOCUMENT_COLUMNS = sql`
  d.id::text as id, d.room_id::text as "roomId", r.name as "roomName", d.name, d.media_type as "mediaType",
  d.sha256, d.status, d.error, d.char_count as "charCount", d.chunk_count as "chunkCount",
  d.entity_count as "entityCount", d.relation_count as "relationCount", b.size_bytes as "sizeBytes",
  d.created_at as "createdAt", d.indexed_at as "indexedAt"`;

export function createDocumentsStore(handle: DbHandle) {
  const { db } = handle;
  return {
    async storeBlob(sha256: string, mediaType: string, bytes: Uint8Array): Promise<void> {
      await db.insert(kbBlobs).values({ sha256, mediaType, sizeBytes: bytes.byteLength, bytes }).onConflictDoNothing();
    },

    /**
     * Claims (room, sha256). Returns the new document id, or the existing row when the file is
     * already in the room — the unique index decides, so concurrent uploads index it once. A
     * previously failed row (including one the sweeper gave up on) is reclaimed so a retry can
     * index it; each claim is a new `attempt`, and only that attempt may write the outcome.
     */
    async claimDocument(input: { roomId: string; sha256: string; name: string; mediaType: string; userId: string }): Promise<{ id: string; created: boolean; attempt: number }> {
      const inserted = await db
        .insert(kbDocuments)
        .values({ roomId: input.roomId, sha256: input.sha256, name: input.name, mediaType: input.mediaType, status: 'indexing', createdBy: input.userId })
        .onConflictDoNothing()
        .returning({ id: kbDocuments.id, attempt: kbDocuments.attempt });
      if (inserted[0]) return { id: inserted[0].id, created: true, attempt: inserted[0].attempt };
      const reclaimed = await db
        .update(kbDocuments)
        .set({ status: 'indexing', error: null, name: input.name, attempt: sql`${kbDocuments.attempt} + 1`, claimedAt: sql`now()` })
        .where(and(eq(kbDocuments.roomId, input.roomId), eq(kbDocuments.sha256, input.sha256), eq(kbDocuments.status, 'failed')))
        .returning({ id: kbDocuments.id, attempt: kbDocuments.attempt });
      if (reclaimed[0]) return { id: reclaimed[0].id, created: true, attempt: reclaimed[0].attempt };
      const [existing] = await handle.rows<{ id: string; attempt: number }>(sql`select id::text as id, attempt from kb_documents where room_id = ${input.roomId} and sha256 = ${input.sha256}`);
      return { id: existing.id, created: false, attempt: existing.attempt };
    },

    /**
     * Writes the text, chunks, graph and counting postings and flips the row to `ready` in one
     * transaction. Each table is one statement whose rows travel as a single JSON parameter
     * (`jsonb_to_recordset`): one round trip and one parse per table, whatever the row count.
     *
     * The transaction first locks the document row *for this attempt*: a superseded indexer (the
     * row was swept and claimed again) writes nothing and gets `false`, and two indexers of one
     * row never interleave their deletes and inserts. A swept row whose own attempt finishes
     * late still becomes `ready` — the work is done and nobody has claimed it since.
     */
    async saveIndex(documentId: string, attempt: number, roomId: string, text: string, chunks: readonly Chunk[], graph: ExtractedGraph): Promise<boolean> {
      const tokens = [...exactTokenPostings(chunks)].map(([term, { positions, followers }]) => ({ t: term, p: positions, f: encodeFollowers(followers) }));
      return db.transaction(async (tx) => {
        const owned = await tx
          .select({ id: kbDocuments.id })
          .from(kbDocuments)
          .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.attempt, attempt)))
          .for('update');
        if (!owned.length) return false;
        // A reclaimed (previously failed) document may hold a partial index: start clean.
        await tx.execute(sql`
          with a as (delete from kb_chunks where document_id = ${documentId}),
               b as (delete from kb_entities where document_id = ${documentId}),
               c as (delete from kb_tokens where document_id = ${documentId})
          delete from kb_lexemes where document_id = ${documentId}`);
        await tx.execute(sql`
          insert into kb_chunks (document_id, room_id, ordinal, start_offset, end_offset, text)
          select ${documentId}, ${roomId}, x.o, x.s, x.e, x.t
          from jsonb_to_recordset(${JSON.stringify(chunks.map((c) => ({ o: c.ordinal, s: c.startOffset, e: c.endOffset, t: c.text })))}::jsonb) as x(o int, s int, e int, t text)`);
        // Phrase-mode postings are the chunk tsvectors' own lexemes, so stemming is Postgres's. The
        // follower lists hold the lexemes 1 and 2 positions on (stop words leave gaps); `at` has
        // one row per position, so joining it never repeats an occurrence.
        await tx.execute(sql`
          with o as (
            select u.lexeme, c.ordinal * ${CHUNK_POSITION_STRIDE} + p as pos
            from kb_chunks c cross join lateral unnest(c.tsv) as u cross join lateral unnest(u.positions) as p
            where c.document_id = ${documentId}
          ),
          at as (select pos, string_agg(${FOLLOWER_MARK} || lexeme || ${FOLLOWER_MARK}, '' order by lexeme) as entries from o group by pos)
          insert into kb_lexemes (term, document_id, room_id, positions, followers1, followers2)
          select o.lexeme, ${documentId}, ${roomId}, array_agg(o.pos order by o.pos),
                 coalesce(string_agg(a1.entries, '' order by o.pos), ''), coalesce(string_agg(a2.entries, '' order by o.pos), '')
          from o left join at a1 on a1.pos = o.pos + 1 left join at a2 on a2.pos = o.pos + 2
          group by o.lexeme`);
        for (const batch of batches(tokens, 5000)) {
          await tx.execute(sql`
            insert into kb_tokens (term, document_id, room_id, positions, followers)
            select x.t, ${documentId}, ${roomId}, array(select jsonb_array_elements_text(x.p)::int), x.f
            from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(t text, p jsonb, f text)`);
        }
        const idByRef = new Map<string, number>();
        for (const batch of batches(graph.entities)) {
          const rows = await tx
            .insert(kbEntities)
            .values(batch.map((e) => ({ documentId, roomId, kind: e.kind, key: e.key, label: e.label, attrs: e.attrs, mentionCount: e.mentions.length })))
            .returning({ id: kbEntities.id, kind: kbEntities.kind, key: kbEntities.key });
          for (const r of rows) idByRef.set(`${r.kind}|${r.key}`, Number(r.id));
        }
        const mentions = graph.entities.flatMap((e) => e.mentions.map((m) => ({ i: idByRef.get(`${e.kind}|${e.key}`)!, s: m.start, e: m.end })));
        for (const batch of batches(mentions, 5000)) {
          await tx.execute(sql`
            insert into kb_mentions (entity_id, document_id, start_offset, end_offset)
            select x.i, ${documentId}, x.s, x.e from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(i bigint, s int, e int)`);
        }
        const relations = graph.relations.map((r) => ({
          k: r.kind,
          f: idByRef.get(r.from)!,
          t: r.to ? (idByRef.get(r.to) ?? null) : null,
          s: r.start,
          e: r.end,
          w: r.weight,
        }));
        for (const batch of batches(relations, 5000)) {
          await tx.execute(sql`
            insert into kb_relations (document_id, room_id, kind, from_entity, to_entity, start_offset, end_offset, weight)
            select ${documentId}, ${roomId}, x.k, x.f, x.t, x.s, x.e, x.w
            from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(k text, f bigint, t bigint, s int, e int, w int)`);
        }
        await tx
          .update(kbDocuments)
          .set({
            status: 'ready',
            error: null,
            text,
            charCount: text.length,
            chunkCount: chunks.length,
            entityCount: graph.entities.length,
            relationCount: relations.length,
            indexedAt: new Date(),
          })
          .where(eq(kbDocuments.id, documentId));
        return true;
      });
    },

    /** Records a failure of this attempt; a superseded attempt changes nothing. */
    async markFailed(documentId: string, attempt: number, error: string): Promise<void> {
      await db
        .update(kbDocuments)
        .set({ status: 'failed', error: error.slice(0, 500) })
        .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.attempt, attempt), eq(kbDocuments.status, 'indexing')));
    },

    /**
     * Fails every row still `indexing` whose claim is older than `olderThanSeconds` (database
     * clock, so every process agrees), in one conditional UPDATE: a row whose indexer is
     * committing right now is locked by it and, once `ready`, no longer matches.
     */
    async failStalledIndexing(olderThanSeconds: number, error: string): Promise<Array<{ id: string; name: string }>> {
      return handle.rows<{ id: string; name: string }>(sql`
        update kb_documents set status = 'failed', error = ${error}
        where status = 'indexing' and claimed_at < now() - make_interval(secs => ${olderThanSeconds})
        returning id::text as id, name`);
    },

    async getDocument(documentId: string, roomIds: readonly string[]): Promise<DocumentRow | undefined> {
      const rows = await handle.rows<DocumentRow>(sql`
        select ${DOCUMENT_COLUMNS} from kb_documents d join kb_rooms r on r.id = d.room_id join kb_blobs b on b.sha256 = d.sha256
        where d.id = ${documentId} and d.room_id in ${sqlList(roomIds)}`);
      return rows[0];
    },

    async listDocuments(roomIds: readonly string[], limit: number, offset: number, status?: string): Promise<DocumentRow[]> {
      return handle.rows<DocumentRow>(sql`
        select ${DOCUMENT_COLUMNS} from kb_documents d join kb_rooms r on r.id = d.room_id join kb_blobs b on b.sha256 = d.sha256
        where d.room_id in ${sqlList(roomIds)} ${status ? sql`and d.status = ${status}` : sql``}
        order by d.created_at desc, d.id limit ${limit} offset ${offset}`);
    },

    /** A window of the `DOC:` text, computed in SQL so a 5 MB text never crosses the wire whole. */
    async textWindow(documentId: string, offset: number, length: number): Promise<{ text: string; total: number }> {
      const [row] = await handle.rows<{ text: string; total: number }>(sql`
        select substr(text, ${offset + 1}, ${length}) as text, char_length(text) as total from kb_documents where id = ${documentId}`);
      return row;
    },

    async blobBytes(sha256: string): Promise<Uint8Array | undefined> {
      const rows = await db.select({ bytes: kbBlobs.bytes }).from(kbBlobs).where(eq(kbBlobs.sha256, sha256));
      return rows[0]?.bytes;
    },
  };
}

export type DocumentsStore = ReturnType<typeof createDocumentsStore>;
