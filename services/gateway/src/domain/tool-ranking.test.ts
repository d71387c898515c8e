import { describe, expect, it } from 'vitest';
import { buildSearchIndex, rankDocuments, tokenize } from './tool-ranking.ts';
import { FIXTURE_CATALOG, GOLDEN_QUERIES } from './tool-ranking.fixture.ts';

const index = buildSearchIndex(FIXTURE_CATALOG);
const top = (q: string, k = 5) => rankDocuments(index, q).slice(0, k).map((h) => index.docs[h.doc]!.id);

describe('rankDocuments (intent-first search, seed 003)', () => {
  it.each([
    ['best stablecoin yield on base', 'research_list_yields'],
    ['send 50 USDC to Alice', 'pay_propose_send'],
    ['how many contracts mention SOFR', 'kb_count'],
  ])('"%s" finds %s first', (query, expected) => {
    expect(top(query, 1)).toEqual([expected]);
  });

  it(`golden set: recall@5 over ${GOLDEN_QUERIES.length} queries`, () => {
    const misses = GOLDEN_QUERIES.filter(([q, want]) => !top(q).includes(want));
    const recall = 1 - misses.length / GOLDEN_QUERIES.length;
    const recallAt1 = GOLDEN_QUERIES.filter(([q, want]) => top(q, 1)[0] === want).length / GOLDEN_QUERIES.length;
    console.log(`search golden set: ${GOLDEN_QUERIES.length} queries, recall@5 = ${(recall * 100).toFixed(1)} %, recall@1 = ${(recallAt1 * 100).toFixed(1)} %${misses.length ? `; misses: ${misses.map(([q]) => q).join(' | ')}` : ''}`);
    expect(GOLDEN_QUERIES.length).toBeGreaterThanOrEqual(50);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  it('honours the allowed filter (one policy decision for list and search)', () => {
    const hits = rankDocuments(index, 'send usdc', (d) => !index.docs[d]!.id.startsWith('pay'));
    expect(hits.every((h) => !index.docs[h.doc]!.id.startsWith('pay'))).toBe(true);
  });

  it('tokenizes snake, camel and prose alike', () => {
    expect(tokenize('listYields list_yields Lists')).toEqual(['list', 'yield', 'list', 'yield', 'list']);
  });
});
