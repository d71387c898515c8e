import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from './support/make-fixtures.ts';
import { startKnowledgeHarness, type KnowledgeCaller } from './support/knowledge-harness.ts';

// PGlite start-up plus migrations can exceed vitest's 60 s hook limit on a loaded 2-core machine.
const SETUP_TIMEOUT_MS = 240_000;

describe('ingestFile: formats (plain text, Markdown, HTML, PDF, DOCX, image)', () => {
  let h: Awaited<ReturnType<typeof startKnowledgeHarness>>;
  let alice: KnowledgeCaller;
  let roomId: string;

  beforeAll(async () => {
    h = await startKnowledgeHarness();
    alice = await h.caller();
    roomId = (await h.store.rooms.ensureRoom('formats', alice.userId)).id;
  }, SETUP_TIMEOUT_MS);
  afterAll(() => h?.close(), SETUP_TIMEOUT_MS);

  it('a generated PDF is parsed, indexed and counted', async () => {
    const pdf = makePdf(['FACILITY AGREEMENT', 'The Guarantor guarantees the Obligations.', 'The Guarantor is Pdfco Inc.']);
    const result = await h.ingestText(roomId, alice.userId, 'facility.pdf', pdf);
    expect(result).toMatchObject({ status: 'ready', mediaType: 'application/pdf', created: true });
    expect(await alice.json('count', { query: 'Guarantor', files: [`DOC:${result.documentId}`] })).toMatchObject({ occurrences: 2, documents: 1 });
  });

  it('a generated DOCX is parsed, indexed and counted, and its defined terms reach the graph', async () => {
    const docx = makeDocx(['SECURITY AGREEMENT', '"Secured Party" means Docx Bank, N.A.', 'The Secured Party may enforce. Secured Party rights survive.']);
    const result = await h.ingestText(roomId, alice.userId, 'security.docx', docx);
    expect(result).toMatchObject({ status: 'ready', created: true });
    expect(await alice.json('count', { query: 'secured party', files: [`DOC:${result.documentId}`] })).toMatchObject({ occurrences: 3, documents: 1 });
    const terms = await alice.json('entities', { kind: 'defined_term', files: [`DOC:${result.documentId}`] });
    expect(terms.entities.map((e: any) => e.label)).toContain('Secured Party');
    const explored = await alice.json('explore', { entity_id: terms.entities[0].entity_id });
    expect(explored.relations.some((r: any) => r.kind === 'defines')).toBe(true);
  });

  it('HTML is reduced to text with entities decoded', async () => {
    const html = '<html><head><style>p{}</style></head><body><p>The&nbsp;Agent &amp; the Lenders</p><p>Agent fees: 1.5%</p></body></html>';
    const result = await h.ingestText(roomId, alice.userId, 'page.html', html);
    expect(await alice.json('count', { query: 'the agent', files: [`DOC:${result.documentId}`] })).toMatchObject({ occurrences: 1 });
  });

  it('an image is stored and fetched back as an image content block', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a2d3a4d10000000049454e44ae426082', 'hex');
    const result = await h.ingestText(roomId, alice.userId, 'dot.png', png);
    const fetched = await alice.call('fetch', { id: `FILE:${result.documentId}` });
    expect(fetched.structuredContent).toBeUndefined();
    expect(fetched.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
  });

  it('fetch windows carry next_offset until the text is exhausted', async () => {
    const text = 'Lorem ipsum dolor. '.repeat(200);
    const result = await h.ingestText(roomId, alice.userId, 'long.txt', text);
    let offset: number | undefined = 0;
    let rebuilt = '';
    while (offset !== undefined) {
      const r = await alice.call('fetch', { id: `DOC:${result.documentId}`, offset, max_chars: 1000 });
      const meta = JSON.parse((r.content[0] as { text: string }).text);
      rebuilt += (r.content[1] as { text: string }).text;
      offset = meta.next_offset;
    }
    expect(rebuilt).toBe(text);
  });
});
