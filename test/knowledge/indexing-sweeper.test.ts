import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimFile, indexClaimedFile, ingestFile } from '../../services/knowledge/src/ingest/ingest-file.ts';
import { sweepStalledIndexing } from '../../services/knowledge/src/ingest/indexing-sweeper.ts';
import { startKnowledgeHarness, type KnowledgeCaller } from './support/knowledge-harness.ts';

// PGlite start-up plus migrations can exceed vitest's 60 s hook limit on a loaded 2-core machine.
const SETUP_TIMEOUT_MS = 240_000;
const TIMEOUT_SECONDS = 900;

describe('sweepStalledIndexing (an upload whose indexer died)', () => {
  let h: Awaited<ReturnType<typeof startKnowledgeHarness>>;
  let alice: KnowledgeCaller;
  let roomId: string;

  beforeAll(async () => {
    h = await startKnowledgeHarness();
    alice = await h.caller();
    roomId = (await h.store.rooms.ensureRoom('uploads', alice.userId)).id;
  }, SETUP_TIMEOUT_MS);
  afterAll(() => h?.close(), SETUP_TIMEOUT_MS);

  const upload = (name: string, text: string) => ({ roomId, userId: alice.userId, name, bytes: Buffer.from(text, 'utf8') });
  /** The claim is as old as a process that died that long ago would have left it. */
  const age = (documentId: string, seconds: number) => h.db.rows(sql`update kb_documents set claimed_at = now() - make_interval(secs => ${seconds}) where id = ${documentId}`);
  const fileOf = async (documentId: string) => (await alice.json('files', {})).files.find((f: { doc_id: string }) => f.doc_id === `DOC:${documentId}`);

  it('fails rows stuck in indexing past the timeout, with a reason files shows, and leaves recent ones', async () => {
    const dead = await claimFile(h.store, upload('dead.txt', 'The Borrower shall pay. Dead upload.'));
    const recent = await claimFile(h.store, upload('recent.txt', 'The Borrower shall pay. Recent upload.'));
    await age(dead.documentId, TIMEOUT_SECONDS + 60);
    await age(recent.documentId, TIMEOUT_SECONDS - 60);

    const swept = await sweepStalledIndexing(h.store, TIMEOUT_SECONDS);

    expect(swept.map((d) => d.id)).toEqual([dead.documentId]);
    expect(await fileOf(dead.documentId)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^indexing stopped: no result 15 min after upload .*upload the file again to retry$/) });
    expect(await fileOf(recent.documentId)).toMatchObject({ status: 'indexing' });
    expect((await alice.json('files', { status: 'failed' })).files).toHaveLength(1);
    expect(await sweepStalledIndexing(h.store, TIMEOUT_SECONDS)).toEqual([]);
  });

  it('a re-upload reclaims a swept row and indexes it; the dead attempt, if it wakes, writes nothing', async () => {
    const text = 'The Borrower shall repay. The Borrower is Acme.';
    const first = await claimFile(h.store, upload('revived.txt', text));
    await age(first.documentId, TIMEOUT_SECONDS + 1);
    await sweepStalledIndexing(h.store, TIMEOUT_SECONDS);

    const retried = await ingestFile(h.store, upload('revived.txt', text));
    expect(retried).toMatchObject({ documentId: first.documentId, created: true, status: 'ready' });
    const late = await indexClaimedFile(h.store, first, upload('revived.txt', text));

    expect(late).toMatchObject({ created: false, status: 'ready', error: expect.stringMatching(/^superseded/) });
    expect(await fileOf(first.documentId)).toMatchObject({ status: 'ready', chunks: 1 });
    expect(await alice.json('count', { query: 'Borrower', files: [`DOC:${first.documentId}`] })).toMatchObject({ occurrences: 2, documents: 1 });
  });

  it('a swept row whose own indexer finishes late still becomes ready (nobody claimed it since)', async () => {
    const slow = await claimFile(h.store, upload('slow.txt', 'A slow but living indexer. Borrower.'));
    await age(slow.documentId, TIMEOUT_SECONDS + 1);
    await sweepStalledIndexing(h.store, TIMEOUT_SECONDS);
    expect(await fileOf(slow.documentId)).toMatchObject({ status: 'failed' });

    expect(await indexClaimedFile(h.store, slow, upload('slow.txt', 'A slow but living indexer. Borrower.'))).toMatchObject({ status: 'ready' });
    expect(await fileOf(slow.documentId)).toMatchObject({ status: 'ready' });
    expect((await fileOf(slow.documentId)).error).toBeUndefined();
  });
});
