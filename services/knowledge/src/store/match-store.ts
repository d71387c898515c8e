import { sql, type SQL } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { literalPatternPg, type MatchPlan, type PhrasePlan } from '../domain/count-query.ts';
import { postingTermsOf } from '../domain/exact-tokens.ts';
import { followerEntry } from '../domain/follower-list.ts';
import { sqlList } from './sql-list.ts';

/**
 * Exhaustive matching: every function here is a total over a scope, computed by one SQL
 * statement with no ranking and no model in the path.
 */
export interface MatchScope {
  /** Rooms the caller may read (already intersected with any `rooms` argument). */
  readonly roomIds?: readonly string[];
  readonly documentIds?: readonly string[];
  /** Only the frozen documents of a set (`count_in_set`). */
  readonly setId?: string;
}

export interface PhraseEcho {
  readonly tsquery: string;
  readonly alternatives: ReadonlyArray<{ text: string; lexemes: string[]; matchable: boolean }>;
  readonly excluded: ReadonlyArray<{ text: string; lexemes: string[] }>;
}

/** A plan bound to SQL: `counted` yields (document_id, room_id, occ) per matching document. */
export interface CompiledMatch {
  readonly counted: SQL;
  readonly echo?: PhraseEcho;
}

export interface DocumentCount {
  readonly documentId: string;
  readonly roomId: string;
  readonly occurrences: number;
  readonly name: string;
  readonly roomName: string;
}

function scopeSql(scope: MatchScope, alias: SQL): SQL {
  const parts: SQL[] = [];
  if (scope.roomIds) parts.push(sql`${alias}.room_id in ${sqlList(scope.roomIds)}`);
  if (scope.documentIds) parts.push(sql`${alias}.document_id in ${sqlList(scope.documentIds)}`);
  if (scope.setId) parts.push(sql`${alias}.document_id in (select document_id from kb_set_members where set_id = ${scope.setId})`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}


/** One alternative as postings: each term at its offset from the first (stop words leave gaps). */
interface TermSequence {
  readonly terms: ReadonlyArray<{ term: string; offset: number }>;
}

/** A postings table and its follower-list columns by distance (see follower-list.ts). */
interface PostingsTable {
  readonly name: SQL;
  readonly followers: Readonly<Record<number, SQL>>;
}

const TOKENS: PostingsTable = { name: sql`kb_tokens`, followers: { 1: sql.raw('followers') } };
const LEXEMES: PostingsTable = { name: sql`kb_lexemes`, followers: { 1: sql.raw('followers1'), 2: sql.raw('followers2') } };

/**
 * A two-term sequence counted from the first term's row: occurrences of the second term's entry
 * in its follower list — one string operation per document, no second row, no per-position rows
 * (so no sort), and a plan cheap enough that Postgres does not JIT-compile it.
 */
function pairCounted(table: PostingsTable, seq: TermSequence, scope: MatchScope): SQL | undefined {
  if (seq.terms.length !== 2) return undefined;
  const [head, next] = seq.terms;
  const column = table.followers[next.offset - head.offset];
  if (!column) return undefined;
  const entry = followerEntry(next.term);
  return sql`
    select t0.document_id, t0.room_id,
      ((octet_length(t0.${column}) - octet_length(replace(t0.${column}, ${entry}::text, ''))) / octet_length(${entry}::text))::int as occ
    from ${table.name} t0 where t0.term = ${head.term} and ${scopeSql(scope, sql`t0`)}`;
}

/**
 * Start positions of a term sequence per document, from a postings table: a start p of the
 * first term counts when every other term has a position at p + its offset. The terms' rows are
 * joined per document and the positions matched inside one array expression, so the joins run
 * once per document (not once per position, which is where the planner put them when positions
 * were rows) and nothing is sorted; no chunk text is read.
 */
function sequenceStarts(table: SQL, seq: TermSequence, scope: MatchScope): SQL {
  const [head, ...rest] = seq.terms;
  const joins = rest.map((t, i) => sql`join ${table} t${sql.raw(String(i + 1))} on t${sql.raw(String(i + 1))}.document_id = t0.document_id and t${sql.raw(String(i + 1))}.term = ${t.term}`);
  const conditions = rest.map((t, i) => sql`(s.p + ${t.offset - head.offset}) = any(t${sql.raw(String(i + 1))}.positions)`);
  return sql`
    select t0.document_id, t0.room_id,
      array(select s.p from unnest(t0.positions) as s(p) ${conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}) as starts
    from ${table} t0 ${sql.join(joins, sql` `)}
    where t0.term = ${head.term} and ${scopeSql(scope, sql`t0`)}`;
}

/** (document_id, room_id, occ) for alternatives whose common start positions count once. */
function countedFromPostings(postings: PostingsTable, alternatives: readonly TermSequence[], scope: MatchScope, excluded: readonly TermSequence[] = []): SQL {
  const table = postings.name;
  if (alternatives.length === 1 && alternatives[0].terms.length === 1 && !excluded.length) {
    // The common case, a single term: its position count is its occurrence count.
    return sql`select t0.document_id, t0.room_id, cardinality(t0.positions) as occ from ${table} t0 where t0.term = ${alternatives[0].terms[0].term} and ${scopeSql(scope, sql`t0`)}`;
  }
  if (alternatives.length === 1 && !excluded.length) {
    // The next most common, a two-word phrase ("Applicable Margin", "event of default"); then
    // any one phrase, whose starts are distinct already.
    return pairCounted(postings, alternatives[0], scope) ?? sql`select x.document_id, x.room_id, cardinality(x.starts) as occ from (${sequenceStarts(table, alternatives[0], scope)}) x`;
  }
  // Several alternatives: each one's starts per document, full-joined on the document, and the
  // distinct starts counted per document in one array expression (a start two alternatives
  // share counts once) — no row per position, so no sort over every match.
  const alias = (i: number) => sql.raw(`a${i}`);
  const documentOf = (n: number) => (n === 1 ? sql`a0.document_id` : sql`coalesce(${sql.join(Array.from({ length: n }, (_, i) => sql`${alias(i)}.document_id`), sql`, `)})`);
  const joined = alternatives.slice(1).map((a, i) => sql`full join (${sequenceStarts(table, a, scope)}) ${alias(i + 1)} on ${alias(i + 1)}.document_id = ${documentOf(i + 1)}`);
  const starts = sql.join(alternatives.map((_, i) => sql`coalesce(${alias(i)}.starts, '{}')`), sql` || `);
  const negation = excluded.length
    ? sql`where not exists (select 1 from (${sql.join(excluded.map((e) => sequenceStarts(table, e, {})), sql` union all `)}) n where n.document_id = ${documentOf(alternatives.length)} and cardinality(n.starts) > 0)`
    : sql``;
  return sql`
    select ${documentOf(alternatives.length)} as document_id,
      coalesce(${sql.join(alternatives.map((_, i) => sql`${alias(i)}.room_id`), sql`, `)}) as room_id,
      (select count(distinct p) from unnest(${starts}) as p)::int as occ
    from (${sequenceStarts(table, alternatives[0], scope)}) a0 ${sql.join(joined, sql` `)}
    ${negation}`;
}

interface Lexeme {
  lexeme: string;
  p: number;
}

export function createMatchStore(handle: DbHandle) {
  async function lexemesOf(text: string): Promise<Lexeme[]> {
    return handle.rows<Lexeme>(sql`
      select u.lexeme, p::int as p from unnest(to_tsvector('english'::regconfig, ${text})) as u, unnest(u.positions) as p order by p, u.lexeme`);
  }

  function tsqueryOf(texts: readonly string[]): SQL {
    return sql.join(texts.map((t) => sql`phraseto_tsquery('english'::regconfig, ${t})`), sql` || `);
  }

  async function compilePhrase(plan: PhrasePlan, scope: MatchScope): Promise<CompiledMatch> {
    const alternatives = await Promise.all(plan.alternatives.map(async (text) => ({ text, lexemes: await lexemesOf(text) })));
    const excluded = await Promise.all(plan.excluded.map(async (text) => ({ text, lexemes: await lexemesOf(text) })));
    const matchable = alternatives.filter((a) => a.lexemes.length > 0);
    const [{ tsquery }] = await handle.rows<{ tsquery: string }>(sql`select (${tsqueryOf(plan.alternatives)})::text as tsquery`);
    const echo: PhraseEcho = {
      tsquery,
      alternatives: alternatives.map((a) => ({ text: a.text, lexemes: a.lexemes.map((l) => l.lexeme), matchable: a.lexemes.length > 0 })),
      excluded: excluded.map((e) => ({ text: e.text, lexemes: e.lexemes.map((l) => l.lexeme) })),
    };
    if (!matchable.length) {
      // Only stop words: nothing can match, and the echo says why.
      return { counted: sql`select null::uuid as document_id, null::uuid as room_id, 0 as occ where false`, echo };
    }
    // Negation is per document: a document containing an excluded term contributes nothing.
    // Occurrences are start positions at which every lexeme of an alternative sits at its offset
    // (stop words leave gaps, as in Postgres phrase search), read from the per-document lexeme
    // postings; a start matched by two alternatives counts once, so OR never double-counts.
    const toSequence = (lexemes: Lexeme[]): TermSequence => ({ terms: lexemes.map((l) => ({ term: l.lexeme, offset: l.p })) });
    const counted = countedFromPostings(
      LEXEMES,
      matchable.map((a) => toSequence(a.lexemes)),
      scope,
      excluded.filter((e) => e.lexemes.length > 0).map((e) => toSequence(e.lexemes)),
    );
    return { counted, echo };
  }

  async function compile(plan: MatchPlan, scope: MatchScope): Promise<CompiledMatch> {
    if (plan.mode === 'phrase') return compilePhrase(plan, scope);
    const terms = plan.mode === 'exact' ? postingTermsOf(plan.words) : undefined;
    if (terms) return { counted: countedFromPostings(TOKENS, [{ terms: terms.map((term, offset) => ({ term, offset })) }], scope) };
    // Words that are not whole tokens (`Borrower's`, `(a)`) and fuzzy substrings: the regex path.
    const pattern = literalPatternPg(plan);
    // `~*` lets the trigram index narrow the chunks; regexp_count then counts every match.
    const counted = sql`
      select c.document_id, c.room_id, sum(regexp_count(c.text, ${pattern}, 1, 'i'))::int as occ
      from kb_chunks c where c.text ~* ${pattern} and ${scopeSql(scope, sql`c`)}
      group by c.document_id, c.room_id`;
    return { counted };
  }

  return {
    compile,

    async count(match: CompiledMatch): Promise<{ documents: number; occurrences: number }> {
      // `offset 0` keeps the subquery from being flattened, which would evaluate `occ` (a string
      // operation on the follower path) once for the filter and again for the sum.
      const [row] = await handle.rows<{ documents: number; occurrences: number }>(sql`
        select count(*)::int as documents, coalesce(sum(occ), 0)::int as occurrences from (${match.counted} offset 0) x where occ > 0`);
      return row;
    },

    /** A page of matching documents (by name), with the totals in the same statement. */
    async enumerate(match: CompiledMatch, limit: number, offset: number): Promise<{ rows: DocumentCount[]; documents: number; occurrences: number }> {
      const rows = await handle.rows<DocumentCount & { totalDocuments: number; totalOccurrences: number }>(sql`
        with x as (${match.counted}), t as (select count(*)::int as d, coalesce(sum(occ), 0)::int as o from x where occ > 0)
        select x.document_id::text as "documentId", x.room_id::text as "roomId", x.occ as occurrences, d.name, r.name as "roomName",
               t.d as "totalDocuments", t.o as "totalOccurrences"
        from t left join x on x.occ > 0 left join kb_documents d on d.id = x.document_id left join kb_rooms r on r.id = x.room_id
        order by d.name nulls last, d.id limit ${limit} offset ${offset}`);
      const documents = rows[0]?.totalDocuments ?? 0;
      const occurrences = rows[0]?.totalOccurrences ?? 0;
      return { rows: rows.filter((r) => r.documentId !== null), documents, occurrences };
    },

    /**
     * Freezes the matching documents into the set and closes the job in ONE statement: the
     * membership is a snapshot as of that statement, so documents ingested meanwhile are either
     * wholly in (committed before it) or wholly out.
     */
    async freeze(setId: string, match: CompiledMatch): Promise<void> {
      await handle.rows(sql`
        with x as (${match.counted}),
        ins as (
          insert into kb_set_members (set_id, document_id, room_id, occurrences)
          select ${setId}, document_id, room_id, occ from x where occ > 0
          returning occurrences
        )
        update kb_sets set status = 'done', frozen_at = now(),
          documents = (select count(*)::int from ins), occurrences = (select coalesce(sum(occurrences), 0)::int from ins)
        where id = ${setId} and status = 'running'`);
    },

    /** Chunks of the given documents that match (for locating occurrences on an enumerate page). */
    async matchingChunks(plan: MatchPlan, documentIds: readonly string[]): Promise<Array<{ documentId: string; startOffset: number; endOffset: number; text: string }>> {
      if (!documentIds.length) return [];
      const where =
        plan.mode === 'phrase'
          ? sql`c.tsv @@ (${tsqueryOf(plan.alternatives)})`
          : sql`c.text ~* ${literalPatternPg(plan)}`;
      return handle.rows(sql`
        select c.document_id::text as "documentId", c.start_offset as "startOffset", c.end_offset as "endOffset", c.text
        from kb_chunks c where c.document_id in ${sqlList(documentIds)} and ${where} order by c.document_id, c.ordinal`);
    },
  };
}

export type MatchStore = ReturnType<typeof createMatchStore>;
export { scopeSql };
