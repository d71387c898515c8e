import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKnowledgeHarness, type KnowledgeCaller } from './support/knowledge-harness.ts';

// PGlite start-up plus migrations can exceed vitest's 60 s hook limit on a loaded 2-core machine.
const SETUP_TIMEOUT_MS = 240_000;

// Two-word phrases are counted from the first word's follower list; everything else (and any
// row written before follower lists existed) by joining positions. The traps: a hard wrap, a
// stop word (`event of default` is `event <2> default`), a non-stop word in the same gap (which
// Postgres phrase search also accepts), a reversed pair, a pair split by a blank line, plurals.
const RAW = [
  'Upon an Event of Default the Agent may act. An event\nof default is defined below. Events of Defaults continue.',
  'EVENT OF DEFAULT. Event X Default. Default of event. Event, default. The event of\n\ndefault is split by a blank line.',
  'Applicable Margin means the margin. The applicable\nmargin, and the Applicable  Margin again; margin applicable.',
  'Nothing relevant here at all.',
];

const exactCount = (raw: string, a: string, b: string) => (raw.match(new RegExp(`(?<![\\p{L}\\p{N}])${a}(?:[ \\t]+\\n?|\\n)[ \\t]*${b}(?![\\p{L}\\p{N}])`, 'giu')) ?? []).length;

describe('two-word phrases from follower lists (count, enumerate)', () => {
  let h: Awaited<ReturnType<typeof startKnowledgeHarness>>;
  let alice: KnowledgeCaller;

  beforeAll(async () => {
    h = await startKnowledgeHarness();
    alice = await h.caller();
    const room = await h.store.rooms.ensureRoom('deals', alice.userId);
    for (const [i, raw] of RAW.entries()) await h.ingestText(room.id, alice.userId, `doc-${i}.txt`, raw);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => h?.close(), SETUP_TIMEOUT_MS);

  const totals = async (query: string, mode: string) => {
    const out = await alice.json('count', { query, mode });
    return { occurrences: out.occurrences, documents: out.documents };
  };

  it('exact: equals an independent regex count of the raw text', async () => {
    const per = RAW.map((r) => exactCount(r, 'applicable', 'margin'));
    expect(await totals('Applicable Margin', 'exact')).toEqual({ occurrences: per.reduce((a, b) => a + b), documents: per.filter(Boolean).length });
    expect(await totals('margin applicable', 'exact')).toEqual({ occurrences: 1, documents: 1 });
  });

  it('exact: longer phrases (the position join) equal an independent regex count too', async () => {
    const per = RAW.map((r) => (r.match(/(?<![\p{L}\p{N}])the(?:[ \t]+\n?|\n)[ \t]*applicable(?:[ \t]+\n?|\n)[ \t]*margin(?![\p{L}\p{N}])/giu) ?? []).length);
    expect(per.reduce((a, b) => a + b)).toBeGreaterThan(1);
    expect(await totals('the Applicable Margin', 'exact')).toEqual({ occurrences: per.reduce((a, b) => a + b), documents: per.filter(Boolean).length });
  });

  it.each([['event of default'], ['applicable margin'], ['default event'], ['margin applicable']])(
    'phrase %s: equals the position join (the same phrase OR itself takes the join path)',
    async (query) => {
      const viaFollowers = await totals(query, 'phrase');
      expect(viaFollowers.occurrences).toBeGreaterThan(0);
      expect(viaFollowers).toEqual(await totals(`${query} OR ${query}`, 'phrase'));
    },
  );

  it('phrase OR: a start shared by two alternatives counts once; -negation drops whole documents', async () => {
    expect(await totals('applicable margin OR applicable', 'phrase')).toEqual(await totals('applicable', 'phrase'));
    const both = await totals('event of default OR applicable margin', 'phrase');
    const [events, margins] = [await totals('event of default', 'phrase'), await totals('applicable margin', 'phrase')];
    expect(both.occurrences).toBe(events.occurrences + margins.occurrences);
    expect(await totals('event of default -margin', 'phrase')).toEqual(events);
    expect(await totals('applicable margin -event', 'phrase')).toEqual(margins);
  });

  it('migration 0005 fills follower lists from stored positions exactly as ingestion writes them', async () => {
    const queries: Array<[string, string]> = [['Applicable Margin', 'exact'], ['event of default', 'phrase'], ['applicable margin', 'phrase']];
    const before = await Promise.all(queries.map(([q, m]) => totals(q, m)));
    const written = await h.db.rows(sql`select term, document_id, followers from kb_tokens order by 1, 2`);
    const writtenLexemes = await h.db.rows(sql`select term, document_id, followers1, followers2 from kb_lexemes order by 1, 2`);
    await h.db.rows(sql`update kb_tokens set followers = ''`);
    await h.db.rows(sql`update kb_lexemes set followers1 = '', followers2 = ''`);
    const backfill = readFileSync(new URL('../../migrations/knowledge/0005_backfill-follower-lists.sql', import.meta.url), 'utf8');
    for (const statement of backfill.split('--> statement-breakpoint')) await h.db.rows(sql.raw(statement));
    expect(await h.db.rows(sql`select term, document_id, followers from kb_tokens order by 1, 2`)).toEqual(written);
    expect(await h.db.rows(sql`select term, document_id, followers1, followers2 from kb_lexemes order by 1, 2`)).toEqual(writtenLexemes);
    expect(await Promise.all(queries.map(([q, m]) => totals(q, m)))).toEqual(before);
  });
});
