import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKnowledgeHarness, type KnowledgeCaller } from './support/knowledge-harness.ts';

// PGlite start-up plus migrations can exceed vitest's 60 s hook limit on a loaded 2-core machine.
const SETUP_TIMEOUT_MS = 240_000;

// A corpus with known traps: a stemmed variant (borrowed/borrowing), a substring inside a longer
// word (Co-Borrower, borrowing), a two-word phrase across a hard line break and across a
// non-breaking space, clause numbers that prefix each other, a CUSIP and a near-miss of it.
const DOC_A = [
  'CREDIT AGREEMENT',
  '',
  '\u201cBorrower\u201d means Acme Holdings Inc., a Delaware corporation. The Borrower\u2019s obligations are joint.',
  '',
  'The Borrower shall pay interest on each Loan. The interest',
  'rate shall be 5.25% per annum, and Borrowers under Section 2.5.3 may prepay.',
  'Section 2.5.3.1 is different from Section 2.5.3 and 12.5.3 is different again.',
  '',
  'The Co-Borrower may request a borrowing. CUSIP 87512QAJ9 identifies the notes; 87512QAJ90 does not.',
].join('\n');
const DOC_B = [
  'TERM LOAN AGREEMENT',
  '',
  'The interest\u00a0rate applies to each Borrowing. The Lender borrowed funds from the BORROWER.',
  'No LIBOR reference appears here except LIBOR itself.',
  '',
  'The Borrower shall not borrow more than $10,000,000.',
].join('\r\n');
const DOC_C = 'SIDE LETTER\n\nThis letter mentions the interest of the parties and a rate card, never together.';
const RAW = [DOC_A, DOC_B, DOC_C];

// ─── Independent counters: written from the definitions, not from the implementation ───
const tokens = (raw: string) => [...raw.matchAll(/[\p{L}\p{N}]+(?:[-./][\p{L}\p{N}]+)*/gu)].map((m) => ({ t: m[0].toLowerCase(), i: m.index, end: m.index + m[0].length }));
function exactCount(raw: string, phrase: string): number {
  const want = phrase.toLowerCase().split(/\s+/);
  const toks = tokens(raw);
  let n = 0;
  for (let i = 0; i + want.length <= toks.length; i++) {
    let ok = true;
    for (let k = 0; k < want.length && ok; k++) {
      ok = toks[i + k].t === want[k];
      if (ok && k > 0) {
        const gap = raw.slice(toks[i + k - 1].end, toks[i + k].i);
        ok = /^[ \t\u00a0\r]*\n?[ \t\u00a0\r]*$/.test(gap) && gap.length > 0;
      }
    }
    if (ok) n++;
  }
  return n;
}
const BORROW_FORMS = new Set(['borrow', 'borrows', 'borrowed', 'borrowing', 'borrowings', 'borrower', 'borrowers']);
const stemCount = (raw: string) => (raw.match(/\p{L}+/gu) ?? []).filter((w) => BORROW_FORMS.has(w.toLowerCase())).length;
const substringCount = (raw: string, needle: string) => raw.toLowerCase().split(needle.toLowerCase()).length - 1;
const totals = (per: number[]) => ({ occurrences: per.reduce((a, b) => a + b, 0), documents: per.filter((n) => n > 0).length });

describe('count / enumerate modes (seed 001, "Counted answers")', () => {
  let h: Awaited<ReturnType<typeof startKnowledgeHarness>>;
  let alice: KnowledgeCaller;
  let roomId: string;

  beforeAll(async () => {
    h = await startKnowledgeHarness();
    alice = await h.caller();
    const room = await h.store.rooms.ensureRoom('deals', alice.userId);
    roomId = room.id;
    for (const [i, raw] of RAW.entries()) await h.ingestText(roomId, alice.userId, `doc-${i}.txt`, raw);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => h?.close(), SETUP_TIMEOUT_MS);

  it.each([
    ['Borrower'],
    ['2.5.3'],
    ['87512QAJ9'],
    ['interest rate'],
    ['LIBOR'],
  ])('exact %s equals an independent whole-token count of the raw text', async (query) => {
    const out = await alice.json('count', { query });
    expect({ occurrences: out.occurrences, documents: out.documents }).toEqual(totals(RAW.map((r) => exactCount(r, query))));
    expect(out.mode).toBe('exact');
    expect(out.finding).toBe(true);
  });

  it('exact: a clause number matches only itself, and a phrase crosses a hard wrap and a non-breaking space', async () => {
    expect((await alice.json('count', { query: '2.5.3' })).occurrences).toBe(2);
    expect((await alice.json('count', { query: '87512QAJ9' })).occurrences).toBe(1);
    const phrase = await alice.json('count', { query: 'interest rate' });
    expect(phrase).toMatchObject({ occurrences: 2, documents: 2 });
  });

  it('phrase stems (borrowed, borrowing, Borrowers all count for "borrower"); exact does not', async () => {
    const phrase = await alice.json('count', { query: 'borrower', mode: 'phrase' });
    const exact = await alice.json('count', { query: 'borrower' });
    expect({ occurrences: phrase.occurrences, documents: phrase.documents }).toEqual(totals(RAW.map(stemCount)));
    expect(exact.occurrences).toBe(RAW.map((r) => exactCount(r, 'borrower')).reduce((a, b) => a + b));
    expect(phrase.occurrences).toBeGreaterThan(exact.occurrences);
    expect(phrase.parsed.stemmed.tsquery).toBe("'borrow'");
  });

  it('fuzzy matches inside longer words and is marked as never a finding', async () => {
    const fuzzy = await alice.json('count', { query: 'borrow', mode: 'fuzzy' });
    expect({ occurrences: fuzzy.occurrences, documents: fuzzy.documents }).toEqual(totals(RAW.map((r) => substringCount(r, 'borrow'))));
    expect(fuzzy.finding).toBe(false);
    expect(fuzzy.parsed.note).toMatch(/never a finding/);
    const exact = await alice.json('count', { query: 'borrow' });
    expect(exact.occurrences).toBe(RAW.map((r) => exactCount(r, 'borrow')).reduce((a, b) => a + b));
    expect(fuzzy.occurrences).toBeGreaterThan(exact.occurrences);
  });

  it('phrase: -negation drops whole documents and OR unions alternatives; the parse is echoed', async () => {
    const negated = await alice.json('count', { query: 'interest rate -LIBOR', mode: 'phrase' });
    const perDoc = RAW.map((r) => (exactCount(r, 'libor') > 0 ? 0 : exactCount(r, 'interest rate')));
    expect({ occurrences: negated.occurrences, documents: negated.documents }).toEqual(totals(perDoc));
    expect(negated.parsed).toMatchObject({ alternatives: ['interest rate'], excluded_documents_containing: ['LIBOR'] });
    expect(negated.parsed.stemmed.tsquery).toBe("'interest' <-> 'rate'");
    const or = await alice.json('count', { query: 'LIBOR OR debenture', mode: 'phrase' });
    expect(or).toMatchObject({ occurrences: 2, documents: 1 });
  });

  it.each(['exact', 'phrase', 'fuzzy'])('a term absent everywhere counts 0 in %s mode, with the scope stated', async (mode) => {
    const out = await alice.json('count', { query: 'debenture', mode });
    expect(out).toMatchObject({ occurrences: 0, documents: 0, mode, scope: { rooms: [{ id: roomId, name: 'deals' }], files: 'all' } });
  });

  it('enumerate lists every matching document with located matches whose offsets point into DOC: text', async () => {
    const out = await alice.json('enumerate', { query: 'interest rate' });
    expect(out.documents).toBe(2);
    expect(out.items).toHaveLength(2);
    for (const item of out.items) {
      expect(item.source).toMatchObject({ kg: expect.stringMatching(/^KG:/), room: roomId });
      const fetched = await alice.call('fetch', { id: item.doc_id });
      const text = (fetched.content[1] as { text: string }).text;
      for (const m of item.matches) expect(text.slice(m.start, m.end).replace(/\s+/g, ' ').toLowerCase()).toBe('interest rate');
    }
  });

  it('the same bytes uploaded twice are stored and indexed once', async () => {
    const again = await h.ingestText(roomId, alice.userId, 'copy.txt', DOC_A);
    expect(again.created).toBe(false);
    expect((await alice.json('files', {})).files).toHaveLength(3);
  });
});
