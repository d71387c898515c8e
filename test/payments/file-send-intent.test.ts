import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { IdentitySlot, intentIdentityTemplate } from '../../services/payments/src/domain/identity-hash.ts';
import { insertContact } from '../../services/payments/src/store/contact-store.ts';
import { activateChainAccount } from '../../services/payments/src/store/directory-store.ts';
import { fileSendIntents, type SendIntentInput, type SendRecipientRef } from '../../services/payments/src/store/file-send-intent.ts';
import { createSendIntentBatcher } from '../../services/payments/src/store/send-intent-batcher.ts';
import { openTestDb } from '../support/test-db.ts';

let handle: Awaited<ReturnType<typeof openTestDb>>;
const alice = randomUUID();
const bob = randomUUID();
let aliceAddress: string;
let bobAddress: string;

beforeAll(async () => {
  handle = await openTestDb();
  aliceAddress = (await activateChainAccount(handle.db, { entityKind: 'user', entityId: alice, chainId: '153', displayName: 'alice', createdBy: alice })).wallet.address;
  bobAddress = (await activateChainAccount(handle.db, { entityKind: 'user', entityId: bob, chainId: '153', displayName: 'bob', createdBy: bob })).wallet.address;
  await insertContact(handle.db, { workspaceId: alice, name: 'bob', email: 'bob@example.com', walletAddress: bobAddress });
}, 60_000);
afterAll(async () => handle?.close());

/** A proposal from alice as tools/file-send-proposal.ts builds it. */
function proposal(to: SendRecipientRef, units: string, requestId: string | null, extra: { title?: string; workspaceId?: string } = {}): SendIntentInput {
  const workspaceId = extra.workspaceId ?? alice;
  const template = intentIdentityTemplate({
    kind: 'send',
    arguments: { asset_id: '153-usdc', amount_units: units, to_wallet_id: new IdentitySlot('to_wallet_id') },
    actorUserId: alice,
    chainId: '153',
    walletId: new IdentitySlot('wallet_id'),
    workspaceId,
    requestId,
  });
  return {
    actorUserId: alice,
    chainId: '153',
    workspaceId,
    to,
    toText: 'address' in to ? to.address : 'email' in to ? to.email : to.contactId,
    actor: { user_id: alice },
    staticArguments: { asset_id: '153-usdc', amount_units: units },
    requestId,
    title: extra.title ?? '',
    rationale: '',
    expiresAt: new Date(Date.now() + 15 * 60_000),
    identityParts: template.parts,
  };
}

const countWhere = async (where: ReturnType<typeof sql>) => Number((await handle.rows<{ n: number }>(sql`select count(*)::int as n from pay_intents where ${where}`))[0]!.n);

describe('fileSendIntents (several proposals, one statement)', () => {
  it('answers each proposal as it would be answered alone, in order', async () => {
    const outcomes = await fileSendIntents(handle.db, '153', [
      proposal({ email: 'bob@example.com' }, '1', 'a', { title: 'first' }), // 0: filed
      proposal({ email: 'BOB@example.com' }, '1', 'a', { title: 'second' }), // 1: the same identity → 0's intent
      proposal({ email: 'bob@example.com' }, '2', 'a'), // 2: request_id a with other arguments → blocked by 0
      proposal({ email: 'nobody@example.com' }, '1', null), // 3: no such contact
      proposal({ address: aliceAddress }, '1', null), // 4: her own wallet: nothing to file
      proposal({ email: 'bob@example.com' }, '3', null), // 5: filed
      proposal({ address: bobAddress.toUpperCase().replace('0X', '0x') }, '1', 'a'), // 6: by address, the same identity as 0
    ]);
    const [first, same, conflict, nobody, own, other, byAddress] = outcomes;
    expect(first!.filed).not.toBeNull();
    expect(first!.blocking).toBeNull();
    expect(same).toMatchObject({ filed: null, blocking: { id: first!.filed!.id, same: true } });
    expect(conflict).toMatchObject({ filed: null, blocking: { id: first!.filed!.id, same: false } });
    expect(nobody).toMatchObject({ filed: null, blocking: null, contact: null, recipient: null });
    expect(nobody!.sender).not.toBeNull();
    expect(own).toMatchObject({ filed: null, blocking: null, identityHash: null });
    expect(own!.recipient!.id).toBe(own!.sender!.id);
    expect(other!.filed).not.toBeNull();
    expect(byAddress).toMatchObject({ filed: null, blocking: { id: first!.filed!.id, same: true } });

    // Two intents, each with exactly one audit row; the stored title is the first proposal's.
    expect(await countWhere(sql`actor_user_id = ${alice}::uuid`)).toBe(2);
    const [row] = await handle.rows<{ title: string; events: number }>(
      sql`select title, (select count(*)::int from pay_intent_events e where e.intent_id = i.id) as events from pay_intents i where id = ${first!.filed!.id}::uuid`,
    );
    expect(row).toMatchObject({ title: 'first', events: 1 });
  });

  it('a later statement finds the committed intents: the same identity, or its request_id with other arguments', async () => {
    const [again, conflict] = await fileSendIntents(handle.db, '153', [proposal({ email: 'bob@example.com' }, '1', 'a'), proposal({ email: 'bob@example.com' }, '9', 'a')]);
    expect(again!.filed).toBeNull();
    expect(again!.blocking).toMatchObject({ same: true, status: 'proposed' });
    expect(conflict!.blocking).toMatchObject({ id: again!.blocking!.id, same: false });
    expect(await countWhere(sql`actor_user_id = ${alice}::uuid`)).toBe(2);
  });
});

describe('createSendIntentBatcher', () => {
  it('when the database refuses a shared statement, each proposal is filed on its own: one failure is nobody else’s', async () => {
    const batcher = createSendIntentBatcher(handle.db);
    // Queued in one tick, so they go to the database together; the unknown workspace breaks the
    // workspace foreign key and with it the whole statement.
    const [good, bad, alsoGood] = await Promise.allSettled([
      batcher.file(proposal({ address: bobAddress }, '11', null)),
      batcher.file(proposal({ address: bobAddress }, '12', null, { workspaceId: randomUUID() })),
      batcher.file(proposal({ address: bobAddress }, '13', null)),
    ]);
    expect(good.status === 'fulfilled' && good.value.filed).toBeTruthy();
    expect(alsoGood.status === 'fulfilled' && alsoGood.value.filed).toBeTruthy();
    expect(bad.status).toBe('rejected');
    expect(await countWhere(sql`actor_user_id = ${alice}::uuid and arguments->>'amount_units' in ('11', '12', '13')`)).toBe(2);
  });
});
