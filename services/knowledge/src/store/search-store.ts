import { sql, type SQL } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { scopeSql, type MatchScope } from './match-store.ts';

export interface PassageRow {
  readonly chunkId: string;
  readonly documentId: string;
  readonly roomId: string;
  readonly roomName: string;
  readonly name: string;
  readonly startOffset: number;
  readonly endOffset: number;
  readonly text: string;
  readonly score: number;
}

/** How the query text becomes a tsquery: `all` words (web-search syntax) or `any` word. */
export type QueryBreadth = 'all' | 'any';

function tsqueryFor(query: string, breadth: QueryBreadth): SQL {
  if (breadth === 'all') return sql`websearch_to_tsquery('english'::regconfig, ${query})`;
  // Any content word: rank decides. Postgres has no "OR of plain words" parser, so the AND
  // query's operators are rewritten; lexemes are already quoted by plainto_tsquery.
  return sql`replace(replace(plainto_tsquery('english'::regconfig, ${query})::text, ' & ', ' | '), ' <-> ', ' | ')::tsquery`;
}

/**
 * Ranking reads every candidate's tsvector, so a query matching most of a large library would
 * rank tens of thousands of chunks. The GIN index yields at most this many matching chunks and
 * only those are ranked: `search` is ranked retrieval, never a total (that is `count`), and the
 * bound keeps its latency flat as the library grows.
 */
const SEARCH_CANDIDATE_CHUNKS = 2000;

/**
 * Cover density (`ts_rank_cd`) is the ranking we want but costs about twice `ts_rank` (it walks
 * positions for covers): ranking all 2,000 candidates with it was ~12 ms of a ~29 ms search at
 * 10,000 documents. So `ts_rank` (term frequency) shortlists this many and only those are ranked
 * by cover density. On the bench's six queries at 10,000 documents a 400 shortlist gives the same
 * top ten as ranking all 2,000 by cover density (100 did not: 6 of 10 for one query).
 */
const SEARCH_SHORTLIST_CHUNKS = 400;

/**
 * Ranked retrieval (search, ask): the best passages, never a total. Ranking uses cover density
 * (on a `ts_rank` shortlist) normalised by passage length (flag 2|32 keeps long boiler-plate paragraphs from winning on
 * sheer repetition).
 */
export function createSearchStore(handle: DbHandle) {
  return {
    async passages(query: string, breadth: QueryBreadth, scope: MatchScope, limit: number, offset: number, maxChars = 700): Promise<PassageRow[]> {
      return handle.rows<PassageRow>(sql`
        with q as (select ${tsqueryFor(query, breadth)} as q),
        candidates as (
          select c.id, c.document_id, c.room_id, c.start_offset, c.end_offset, c.tsv
          from kb_chunks c, q where c.tsv @@ q.q and ${scopeSql(scope, sql`c`)}
          limit ${SEARCH_CANDIDATE_CHUNKS}
        ),
        shortlist as (
          select c.*, ts_rank(c.tsv, q.q, 2|32) as quick
          from candidates c, q order by quick desc, c.id limit ${Math.max(SEARCH_SHORTLIST_CHUNKS, offset + limit)}
        ),
        top as (
          select c.id, c.document_id, c.room_id, c.start_offset, c.end_offset, ts_rank_cd(c.tsv, q.q, 2|32) as score
          from shortlist c, q order by score desc, c.id limit ${limit} offset ${offset}
        )
        select top.id::text as "chunkId", top.document_id::text as "documentId", top.room_id::text as "roomId", r.name as "roomName",
               d.name, top.start_offset as "startOffset", top.end_offset as "endOffset",
               left(ch.text, ${maxChars}) as text, top.score::float8 as score
        from top join kb_chunks ch on ch.id = top.id join kb_documents d on d.id = top.document_id join kb_rooms r on r.id = top.room_id
        order by top.score desc, top.id`);
    },
  };
}

export type SearchStore = ReturnType<typeof createSearchStore>;
