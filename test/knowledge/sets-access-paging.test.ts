import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText, startKnowledgeHarness, type KnowledgeCaller } from './support/knowledge-harness.ts';

// PGlite start-up plus migrations can exceed vitest's 60 s hook limit on a loaded 2-core machine.
const SETUP_TIMEOUT_MS = 240_000;

async function waitForSet(caller: KnowledgeCaller, jobId: string) {
  for (let i = 0; i < 100; i++) {
    const status = await caller.json('set_status', { job_id: jobId });
    if (status.status !== 'running') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('freeze did not finish');
}

const para = (i: number) => `Clause ${i}. The Borrower shall repay the Term Loan in full. ${'The Borrower covenants to deliver financial statements to the Agent. '.repeat(8)}`;

describe('frozen sets, access and paging (seed 001)', () => {
  let h: Awaited<ReturnType<typeof startKnowledgeHarness>>;
  let alice: KnowledgeCaller;
  let bob: KnowledgeCaller;
  let aliceRoom: string;
  let bobRoom: string;

  beforeAll(async () => {
    h = await startKnowledgeHarness({ KNOWLEDGE_PAGE_BUDGET_BYTES: '16384' });
    alice = await h.caller();
    bob = await h.caller();
    aliceRoom = (await h.store.rooms.ensureRoom('alice-deals', alice.userId)).id;
    bobRoom = (await h.store.rooms.ensureRoom('bob-notes', bob.userId, 'notebook')).id;
    await h.ingestText(aliceRoom, alice.userId, 'a1.txt', '"Borrower" means Acme Inc.\n\nThe Borrower shall pay LIBOR plus 2%.');
    await h.ingestText(aliceRoom, alice.userId, 'a2.txt', 'The Borrower and the Lender agree. Borrower again.');
    await h.ingestText(aliceRoom, alice.userId, 'a3.txt', 'Nothing about the obligor here.');
    await h.ingestText(bobRoom, bob.userId, 'b1.txt', 'Bob private: the Borrower is Bobco LLC.');
  }, SETUP_TIMEOUT_MS);
  afterAll(() => h?.close(), SETUP_TIMEOUT_MS);

  describe('freeze_set / set_status / get_set / count_in_set', () => {
    it('a frozen set stays the same after more documents are ingested, and count_in_set answers from it', async () => {
      const started = await alice.json('freeze_set', { query: 'Borrower' });
      expect(started).toEqual({ job_id: expect.any(String), status: 'running' });
      const done = await waitForSet(alice, started.job_id);
      expect(done).toMatchObject({ status: 'done', documents: 2, occurrences: 4, set_id: expect.stringMatching(/^SET:/) });

      const before = await alice.json('get_set', { set_id: done.set_id });
      expect(before).toMatchObject({ set_id: done.set_id, query: 'Borrower', mode: 'exact', documents: 2, occurrences: 4 });
      expect(before.frozen_at).toEqual(expect.any(String));
      expect(before.members.map((m: any) => m.name)).toEqual(['a1.txt', 'a2.txt']);

      await h.ingestText(aliceRoom, alice.userId, 'a4.txt', 'A later Borrower document, Borrower twice, mentioning LIBOR.');
      expect((await alice.json('count', { query: 'Borrower' })).occurrences).toBe(6);

      const after = await alice.json('get_set', { set_id: done.set_id });
      expect(after).toEqual(before);
      const inSet = await alice.json('count_in_set', { set_id: done.set_id, query: 'Borrower' });
      expect(inSet).toMatchObject({ occurrences: 4, documents: 2 });
      const libor = await alice.json('count_in_set', { set_id: done.set_id, query: 'LIBOR' });
      expect(libor).toMatchObject({ occurrences: 1, documents: 1 });
      expect((await alice.json('sets', {})).sets[0]).toMatchObject({ set_id: done.set_id, access: 'owner', status: 'done' });
    });
  });

  describe('access: two users see nothing of each other through any tool', () => {
    it.each([
      ['count', { query: 'Borrower' }, (o: any) => o.occurrences === 1 && o.scope.rooms.length === 1],
      ['enumerate', { query: 'Borrower' }, (o: any) => o.items.every((i: any) => i.name === 'b1.txt')],
      ['search', { query: 'Borrower' }, (o: any) => o.hits.every((i: any) => i.name === 'b1.txt')],
      ['ask', { question: 'Who is the Borrower?' }, (o: any) => o.citations.every((c: any) => c.name === 'b1.txt')],
      ['files', {}, (o: any) => o.files.length === 1 && o.files[0].name === 'b1.txt'],
      ['graphs', {}, (o: any) => o.graphs.length === 1],
      ['entities', {}, (o: any) => o.entities.every((e: any) => e.name === 'b1.txt')],
      ['rooms', {}, (o: any) => o.rooms.length === 1 && o.rooms[0].name === 'bob-notes'],
      ['sets', {}, (o: any) => o.sets.length === 0],
    ])("bob's %s reads only bob's room", async (tool, args, check) => {
      expect(check(await bob.json(tool, args))).toBe(true);
    });

    it("alice's ids and rooms are not found for bob, exactly like ids that do not exist", async () => {
      const aliceFile = (await alice.json('files', {})).files[0];
      const aliceEntity = (await alice.json('entities', {})).entities[0];
      const aliceSet = (await alice.json('sets', {})).sets[0];
      const refusals = [
        await bob.call('fetch', { id: aliceFile.doc_id }),
        await bob.call('fetch', { id: aliceFile.file_id }),
        await bob.call('explore', { entity_id: aliceEntity.entity_id }),
        await bob.call('get_set', { set_id: aliceSet.set_id }),
        await bob.call('count_in_set', { set_id: aliceSet.set_id, query: 'Borrower' }),
        await bob.call('set_status', { job_id: aliceSet.job_id }),
        await bob.call('count', { query: 'Borrower', rooms: ['alice-deals'] }),
        await bob.call('count', { query: 'Borrower', files: [aliceFile.doc_id] }),
      ];
      for (const r of refusals) {
        expect(r.isError).toBe(true);
        expect(r.structuredContent).toBeUndefined();
        expect(errorText(r)).not.toMatch(/^\{/); // plain message on the knowledge tools
      }
      const unknown = await bob.call('fetch', { id: 'DOC:00000000-0000-4000-8000-000000000000' });
      expect(errorText(unknown).replace(/DOC:\S+/, 'X')).toBe(errorText(refusals[0]).replace(/DOC:\S+/, 'X'));
    });

    it('a set shared into a workspace is readable by its members as source {set}, with no citation link', async () => {
      const shared = await h.store.rooms.ensureRoom('joint-ws', alice.userId);
      await h.store.rooms.addMember(shared.id, bob.userId);
      const started = await alice.json('freeze_set', { query: 'LIBOR', rooms: ['alice-deals'], share_with_rooms: ['joint-ws'] });
      const done = await waitForSet(alice, started.job_id);
      const seen = await bob.json('get_set', { set_id: done.set_id });
      expect(seen.access).toBe('shared');
      expect(seen.members.length).toBe(2);
      for (const m of seen.members) {
        expect(m.source).toEqual({ set: done.set_id });
        expect(m).not.toHaveProperty('doc_id');
      }
      const counted = await bob.json('count_in_set', { set_id: done.set_id, query: 'Borrower' });
      // a1 ("Borrower" means…, The Borrower…) and a4 (Borrower twice) are the LIBOR documents.
      expect(counted.occurrences).toBe(4);
      for (const item of counted.items) expect(item.source).toEqual({ set: done.set_id });
      // The set is shared, the room is not.
      expect((await bob.call('count', { query: 'LIBOR', rooms: ['alice-deals'] })).isError).toBe(true);
    });
  });

  describe('paging: limit, cursor, truncation', () => {
    beforeAll(async () => {
      for (let i = 0; i < 105; i++) await h.store.rooms.ensureRoom(`room-${String(i).padStart(3, '0')}`, bob.userId);
    }, SETUP_TIMEOUT_MS);

    it('a non-integer limit such as "12" is refused, not defaulted', async () => {
      for (const tool of ['rooms', 'files', 'search', 'enumerate']) {
        const r = await bob.call(tool, { limit: '12', query: 'x' });
        expect(r.isError).toBe(true);
        expect(r.structuredContent).toBeUndefined();
        expect(errorText(r)).toMatch(/limit/);
      }
      const deal = await bob.call('deal_list', { limit: '12' });
      expect(JSON.parse(errorText(deal)).error.code).toBe('invalid_arguments');
    });

    it('a limit past the cap is clamped (100, 25 on search)', async () => {
      const page = await bob.json('rooms', { limit: 500 });
      expect(page.rooms).toHaveLength(100);
      expect(page.next_cursor).toEqual(expect.any(String));
      const rest = await bob.json('rooms', { limit: 500, cursor: page.next_cursor });
      expect(rest.rooms).toHaveLength(7); // bob-notes, joint-ws and the 105 above
      expect(rest.next_cursor).toBeUndefined();
      expect(new Set([...page.rooms, ...rest.rooms].map((r: any) => r.room)).size).toBe(107);
      const search = await alice.json('search', { query: 'Borrower', limit: 500 });
      expect(search.hits.length).toBeLessThanOrEqual(25);
    });

    it('a tampered, foreign-user or other-tool cursor is refused', async () => {
      const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const page = await bob.json('rooms', { limit: 10 });
      const [payload, mac] = page.next_cursor.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), o: 50 })).toString('base64url');
      const attempts = [
        await bob.call('rooms', { limit: 10, cursor: `${forged}.${mac}` }),
        // A different first character always changes the tag's bytes (the last one has unused bits).
        await bob.call('rooms', { limit: 10, cursor: `${payload}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}` }),
        // The same bytes spelled differently: flip one of the last character's unused bits.
        await bob.call('rooms', { limit: 10, cursor: `${payload}.${mac.slice(0, -1)}${B64URL[B64URL.indexOf(mac.at(-1)!) ^ 1]}` }),
        await alice.call('rooms', { limit: 10, cursor: page.next_cursor }),
        await bob.call('sets', { limit: 10, cursor: page.next_cursor }),
        await bob.call('files', { cursor: 'not-a-cursor' }),
      ];
      for (const r of attempts) {
        expect(r.isError).toBe(true);
        expect(errorText(r)).toMatch(/cursor was not issued/);
      }
    });

    it('an oversized page is cut with truncated: true and a cursor at the first dropped item', async () => {
      const room = (await alice.json('rooms', {})).rooms.find((r: any) => r.name === 'alice-deals').room;
      for (let i = 0; i < 30; i++) await h.ingestText(room, alice.userId, `big-${i}.txt`, para(i));
      const first = await alice.json('search', { query: 'Borrower covenants', limit: 25 });
      expect(first.truncated).toBe(true);
      expect(first.hits.length).toBeGreaterThan(0);
      expect(first.hits.length).toBeLessThan(25);
      expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThanOrEqual(16384);
      const seen = new Set(first.hits.map((x: any) => x.doc_id));
      let cursor = first.next_cursor;
      while (cursor) {
        const next = await alice.json('search', { query: 'Borrower covenants', limit: 25, cursor });
        for (const hit of next.hits) {
          expect(seen.has(hit.doc_id)).toBe(false);
          seen.add(hit.doc_id);
        }
        cursor = next.next_cursor;
      }
      expect(seen.size).toBe(30);
    });
  });
});
