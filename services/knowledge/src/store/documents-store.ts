import { and, eq, sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Chunk } from '../domain/chunk-text.ts';
import type { ExtractedGraph } from '../domain/extract-entities.ts';
import { CHUNK_POSITION_STRIDE, exactTokenPostings } from '../domain/exact-tokens.ts';
import { encodeFollowers, FOLLOWER_MARK } from '../domain/follower-list.ts';
import { sqlList } from './sql-list.ts';
import { kbBlobs, kbDocuments } from './schema.ts';

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
     * transaction of two statements — the text index (chunks, their lexeme postings, exact-token
     * postings) and the graph (entities, mentions, relations, the document row) — each a chain
     * of data-modifying CTEs whose rows travel as JSON parameters (`jsonb_to_recordset`). A file
     * costs four round trips whatever its size; each table used to cost one or more.
     *
     * The transaction first locks the document row *for this attempt*: a superseded indexer (the
     * row was swept and claimed again) writes nothing and gets `false`, and two indexers of one
     * row never interleave their deletes and inserts. A swept row whose own attempt finishes
     * late still becomes `ready` — the work is done and nobody has claimed it since.
     */
    async saveIndex(documentId: string, attempt: number, roomId: string, text: string, chunks: readonly Chunk[], graph: ExtractedGraph): Promise<boolean> {
      const tokens = [...exactTokenPostings(chunks)].map(([term, { positions, followers }]) => ({ t: term, p: positions, f: encodeFollowers(followers) }));
      const entityIndex = new Map(graph.entities.map((e, i) => [`${e.kind}|${e.key}`, i]));
      const entities = graph.entities.map((e, i) => ({ i, k: e.kind, y: e.key, l: e.label, a: e.attrs, n: e.mentions.length }));
      const mentions = graph.entities.flatMap((e, i) => e.mentions.map((m) => ({ i, s: m.start, e: m.end })));
      const relations = graph.relations.map((r) => ({ k: r.kind, f: entityIndex.get(r.from)!, t: r.to ? (entityIndex.get(r.to) ?? null) : null, s: r.start, e: r.end, w: r.weight }));
      return db.transaction(async (tx) => {
        // jit off for this transaction: the planner sizes these statements from row estimates
        // of tables it has no statistics for yet (a fresh library, autovacuum behind), and at
        // ~10,000 documents it started JIT-compiling statements that run in milliseconds for
        // 40–160 ms each. Set in the locking statement, so it costs no extra round trip.
        const owned = await tx
          .select({ jit: sql<string>`set_config('jit', 'off', true)` })
          .from(kbDocuments)
          .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.attempt, attempt)))
          .for('update');
        if (!owned.length) return false;
        if (attempt > 1) {
          // Writes are all-or-nothing, so only a reclaimed row can hold an index (from an
          // attempt that finished after it was swept); a first attempt has nothing to clear.
          await tx.execute(sql`
            with a as (delete from kb_chunks where document_id = ${documentId}),
                 b as (delete from kb_entities where document_id = ${documentId}),
                 c as (delete from kb_tokens where document_id = ${documentId})
            delete from kb_lexemes where document_id = ${documentId}`);
        }
        // Phrase-mode postings are the chunk tsvectors' own lexemes (read back from the insert),
        // so stemming is Postgres's. The follower lists hold the lexemes 1 and 2 positions on
        // (stop words leave gaps); `at` has one row per position, so joining it never repeats
        // an occurrence.
        await tx.execute(sql`
          with ch as (
            insert into kb_chunks (document_id, room_id, ordinal, start_offset, end_offset, text)
            select ${documentId}, ${roomId}, x.o, x.s, x.e, x.t
            from jsonb_to_recordset(${JSON.stringify(chunks.map((c) => ({ o: c.ordinal, s: c.startOffset, e: c.endOffset, t: c.text })))}::jsonb) as x(o int, s int, e int, t text)
            returning ordinal, tsv
          ),
          o as (
            select u.lexeme, ch.ordinal * ${CHUNK_POSITION_STRIDE} + p as pos
            from ch cross join lateral unnest(ch.tsv) as u cross join lateral unnest(u.positions) as p
          ),
          at as (select pos, string_agg(${FOLLOWER_MARK} || lexeme || ${FOLLOWER_MARK}, '' order by lexeme) as entries from o group by pos),
          lexemes as (
            insert into kb_lexemes (term, document_id, room_id, positions, followers1, followers2)
            select o.lexeme, ${documentId}, ${roomId}, array_agg(o.pos order by o.pos),
                   coalesce(string_agg(a1.entries, '' order by o.pos), ''), coalesce(string_agg(a2.entries, '' order by o.pos), '')
            from o left join at a1 on a1.pos = o.pos + 1 left join at a2 on a2.pos = o.pos + 2
            group by o.lexeme
          )
          insert into kb_tokens (term, document_id, room_id, positions, followers)
          select x.t, ${documentId}, ${roomId}, array(select jsonb_array_elements_text(x.p)::int), x.f
          from jsonb_to_recordset(${JSON.stringify(tokens)}::jsonb) as x(t text, p jsonb, f text)`);
        // Mentions and relations name entities by their index in the graph; `ref` maps it to the
        // id the insert assigned. Their foreign keys are checked at the end of the statement,
        // when the entities exist.
        await tx.execute(sql`
          with x as (select * from jsonb_to_recordset(${JSON.stringify(entities)}::jsonb) as x(i int, k text, y text, l text, a jsonb, n int)),
          e as (
            insert into kb_entities (document_id, room_id, kind, key, label, attrs, mention_count)
            select ${documentId}, ${roomId}, x.k, x.y, x.l, x.a, x.n from x
            returning id, kind, key
          ),
          ref as (select x.i, e.id from e join x on x.k = e.kind and x.y = e.key),
          m as (
            insert into kb_mentions (entity_id, document_id, start_offset, end_offset)
            select ref.id, ${documentId}, y.s, y.e from jsonb_to_recordset(${JSON.stringify(mentions)}::jsonb) as y(i int, s int, e int) join ref on ref.i = y.i
          ),
          r as (
            insert into kb_relations (document_id, room_id, kind, from_entity, to_entity, start_offset, end_offset, weight)
            select ${documentId}, ${roomId}, y.k, f.id, t.id, y.s, y.e, y.w
            from jsonb_to_recordset(${JSON.stringify(relations)}::jsonb) as y(k text, f int, t int, s int, e int, w int)
            join ref f on f.i = y.f left join ref t on t.i = y.t
          )
          update kb_documents set status = 'ready', error = null, text = ${text}, char_count = ${text.length}, chunk_count = ${chunks.length},
            entity_count = ${graph.entities.length}, relation_count = ${relations.length}, indexed_at = now()
          where id = ${documentId}`);
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
