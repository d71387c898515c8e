import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addContact, count, person, startPaymentsStack, type Person } from './payments-fixture.ts';
import { intentIdentityHash } from '../../services/payments/src/domain/identity-hash.ts';
import { insertContact } from '../../services/payments/src/store/contact-store.ts';
import { fileIntent } from '../../services/payments/src/store/intent-store.ts';

let stack: Awaited<ReturnType<typeof startPaymentsStack>>;
let alice: Person;
let bob: Person;
let wallets: { alice: string; bob: string };
let bobContactId: string;

beforeAll(async () => {
  stack = await startPaymentsStack();
  alice = await person(stack, 'alice@example.com', { fund: { USDC: '100' } });
  bob = await person(stack, 'bob@example.com');
  bobContactId = (await addContact(stack, alice, bob)).id;
  const rows = await stack.db.rows<{ entity_id: string; id: string }>(sql`select entity_id, id from pay_wallets`);
  const walletOf = (id: string) => rows.find((r) => r.entity_id === id)!.id;
  wallets = { alice: walletOf(alice.id), bob: walletOf(bob.id) };
}, 180_000);
afterAll(async () => stack?.close());

async function propose(args: Record<string, unknown>) {
  const res = await fetch(stack.url('payments-test'), {
    method: 'POST',
    headers: { authorization: `Bearer ${alice.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'propose_send', arguments: args } }),
  });
  const body = (await res.json()) as any;
  return { isError: body.result.isError === true, doc: JSON.parse(body.result.content[0].text) };
}

/** The identity the general path (tools/file-proposal.ts) computes for alice → bob. */
/** A send intent of Alice's on the test chain, filed directly (bypassing the tool) to set up a race. */
function aliceSend(requestId: string, identityHash: string, expiresAt: Date) {
  return { workspaceId: alice.id, chainId: '153', kind: 'send' as const, actorUserId: alice.id, actor: {}, walletId: wallets.alice, arguments: {}, requestId, identityHash, title: '', rationale: '', expiresAt };
}

function identityOf(units: string, requestId: string | null) {
  return intentIdentityHash({
    kind: 'send',
    arguments: { asset_id: '153-usdc', amount_units: units, to_wallet_id: wallets.bob },
    actorUserId: alice.id,
    chainId: '153',
    walletId: wallets.alice,
    workspaceId: alice.id,
    requestId,
  });
}

const intentRow = async (id: string) =>
  (await stack.db.rows<{ status: string; arguments: Record<string, unknown>; identity_hash: string; last_actor: string }>(sql`select * from pay_intents where id = ${id}::uuid`))[0]!;
const events = (id: string) => stack.db.rows<{ from_status: string | null; to_status: string; actor: string }>(sql`select from_status, to_status, actor from pay_intent_events where intent_id = ${id}::uuid order by id`);

describe('propose_send in one statement (tools/file-send-proposal.ts, store/file-send-intent.ts)', () => {
  it('files what the general path files: resolved arguments, the identity over the resolved ids, one audit row', async () => {
    const { isError, doc } = await propose({ asset: 'usdc', amount: '2.5', to: 'BOB@example.com', request_id: 'one-statement', title: 'Lunch' });
    expect(isError).toBe(false);
    expect(doc).toMatchObject({ status: 'proposed', workspace_id: alice.id, created: true, identity_hash: identityOf('2500000', 'one-statement') });
    const row = await intentRow(doc.intent_id);
    expect(row.identity_hash).toBe(doc.identity_hash);
    expect(row.last_actor).toBe(`user:${alice.id}`);
    expect(row.arguments).toEqual({
      asset_id: '153-usdc',
      symbol: 'USDC',
      amount: '2.5',
      units: '2500000',
      amount_units: '2500000',
      to_wallet_id: wallets.bob,
      to_address: bob.address,
      to_label: 'bob <bob@example.com>',
      to_contact_id: bobContactId,
      from_address: alice.address,
    });
    expect(await events(doc.intent_id)).toEqual([{ from_status: null, to_status: 'proposed', actor: `user:${alice.id}` }]);
  });

  it('the same proposal by address (as typed) or contact id is the same identity: created false, no second audit row', async () => {
    const first = (await propose({ asset: 'USDC', amount: '3', to: bob.address.toUpperCase().replace('0X', '0x') })).doc;
    expect(first.created).toBe(true);
    const row = await intentRow(first.intent_id);
    expect(row.arguments).toMatchObject({ to_label: bob.address.toUpperCase().replace('0X', '0x'), to_contact_id: null, to_wallet_id: wallets.bob });
    for (const to of [bob.email, bobContactId, bob.address]) {
      const again = (await propose({ asset: '153-usdc', amount: '3.000', to })).doc;
      expect(again).toMatchObject({ intent_id: first.intent_id, created: false, identity_hash: identityOf('3000000', null) });
    }
    expect(await events(first.intent_id)).toHaveLength(1);
  });

  it('names each recipient failure, in the documented order, and files nothing', async () => {
    await insertContact(stack.db.db, { workspaceId: alice.id, name: 'No Address', email: 'noaddr@example.com' });
    await insertContact(stack.db.db, { workspaceId: alice.id, name: 'Elsewhere', email: 'elsewhere@example.com', walletAddress: `0x${'ab'.repeat(20)}` });
    const before = await count(stack, 'pay_intents');
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ to: 'stranger@example.com' }, 'not_found', /no contact "stranger@example.com"/],
      [{ to: '00000000-0000-4000-8000-000000000000' }, 'not_found', /no contact/],
      [{ to: 'noaddr@example.com' }, 'not_found', /contact No Address has no wallet address/],
      [{ to: 'elsewhere@example.com' }, 'not_found', /no chain account 0xabab/],
      [{ to: `0x${'CD'.repeat(20)}` }, 'not_found', /no chain account 0xcdcd/],
      [{ to: alice.address }, 'invalid_params', /your own wallet/],
      [{ to: 'bob' }, 'not_found', /no contact "bob"/],
      // Asset and amount come before the recipient, as on the general path.
      [{ to: 'stranger@example.com', asset: 'DOGE' }, 'not_found', /asset: no asset "DOGE"/],
      [{ to: 'stranger@example.com', amount: '0.0000001' }, 'invalid_params', /amount: USDC has 6 decimals/],
    ];
    for (const [args, code, message] of cases) {
      const { isError, doc } = await propose({ asset: 'USDC', amount: '1', ...args });
      expect(isError).toBe(true);
      expect(doc.error.code).toBe(code);
      expect(doc.error.message).toMatch(message);
    }
    expect(await count(stack, 'pay_intents')).toBe(before);
  });

  it('the same request_id with other arguments is intent_conflict naming the open intent; nothing is filed', async () => {
    const first = (await propose({ asset: 'USDC', amount: '4', to: bob.email, request_id: 'conflict' })).doc;
    const before = await count(stack, 'pay_intents');
    const { isError, doc } = await propose({ asset: 'USDC', amount: '5', to: bob.email, request_id: 'conflict' });
    expect(isError).toBe(true);
    expect(doc.error).toMatchObject({ code: 'intent_conflict', intent_id: first.intent_id });
    expect(await count(stack, 'pay_intents')).toBe(before);
  });

  it('an open proposal past its 15 minutes that the sweep has not reached blocks nothing: it expires and a new one is filed', async () => {
    const past = new Date(Date.now() - 1000);
    const stale = await fileIntent(
      stack.db.db,
      aliceSend('stale', identityOf('6000000', 'stale'), past),
      new Date(past.getTime() - 1000),
    );
    const { doc } = await propose({ asset: 'USDC', amount: '6', to: bob.email, request_id: 'stale' });
    expect(doc.created).toBe(true);
    expect(doc.intent_id).not.toBe(stale.intent.id);
    expect((await intentRow(stale.intent.id)).status).toBe('expired');
    expect((await events(stale.intent.id)).map((e) => e.to_status)).toEqual(['proposed', 'expired']);
  });

  // PGlite is one connection: no second transaction can hold a row while a proposal waits.
  it.skipIf(!process.env.DATABASE_URL)(
    'an identical intent committed while the statement waits on it (outside its snapshot) is answered, created: false',
    async () => {
      const identityHash = identityOf('7000000', 'racing');
      let answer: Promise<Awaited<ReturnType<typeof propose>>> | undefined;
      const held = await stack.db.db.transaction(async (tx) => {
        const filed = await fileIntent(
          tx,
          aliceSend('racing', identityHash, new Date(Date.now() + 60_000)),
          new Date(),
        );
        const [{ xid }] = (await tx.execute(sql`select pg_current_xact_id()::text as xid`)) as unknown as Array<{ xid: string }>;
        answer = propose({ asset: 'USDC', amount: '7', to: bob.email, request_id: 'racing' });
        // Commit only once the proposal's INSERT is queued behind our uncommitted row.
        for (;;) {
          const [waiting] = await stack.db.rows<{ n: number }>(sql`select count(*)::int as n from pg_locks where locktype = 'transactionid' and transactionid::text = ${xid} and not granted`);
          if (Number(waiting!.n) > 0) break;
          await new Promise((r) => setTimeout(r, 5));
        }
        return filed.intent;
      });
      const { doc } = await answer!;
      expect(doc).toMatchObject({ intent_id: held.id, created: false, identity_hash: identityHash });
      expect(await count(stack, 'pay_intents', sql`request_id = 'racing'`)).toBe(1);
    },
  );
});
