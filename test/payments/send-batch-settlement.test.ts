import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleSendBatch } from '../../services/payments/src/store/send-batch-settlement.ts';
import { addContact, assertLedgerSound, count, internal, oboFor, parse, person, startPaymentsStack, type Person } from './payments-fixture.ts';

/**
 * The worker's batched path for sends: one transaction settles many intents, checking each
 * against the running balance in order, so the outcome per intent is what one-by-one settlement
 * would give (seed 001 "Settlement": completed, or failed with insufficient_funds).
 */
let stack: Awaited<ReturnType<typeof startPaymentsStack>>;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  stack = await startPaymentsStack();
  alice = await person(stack, 'alice@example.com', { fund: { USDC: '10', EURC: '1' } });
  bob = await person(stack, 'bob@example.com');
  await addContact(stack, alice, bob);
}, 180_000);
afterAll(async () => stack?.close());

async function proposeAndConfirm(args: Record<string, unknown>): Promise<{ intent_id: string; workspace_id: string }> {
  const client = await stack.mcpClient('payments-test', alice.key);
  try {
    const p = parse(await client.callTool({ name: 'propose_send', arguments: args }));
    const r = await internal(stack, await oboFor(stack, alice.id, 'personal'), 'POST', `/internal/intents/${p.workspace_id}/${p.intent_id}/confirm`);
    expect(r.status).toBe(200);
    return p;
  } finally {
    await client.close();
  }
}

const statusOf = async (id: string) =>
  (await stack.db.rows<{ status: string; failure_reason: string | null; message_id: string | null }>(sql`select status, failure_reason, message_id from pay_intents where id = ${id}::uuid`))[0]!;

describe('settleSendBatch (worker batch path)', () => {
  it('settles in order against the running balance: what fits completes, the rest fails insufficient_funds', async () => {
    // 10 USDC: 4 + 4 fit, the third 4 does not, the 2 after it does; 1 EURC cannot cover 5.
    const sends = [];
    for (const [i, amount, asset] of [[1, '4', 'USDC'], [2, '4', 'USDC'], [3, '4', 'USDC'], [4, '2', 'USDC'], [5, '5', 'EURC']] as const) {
      sends.push(await proposeAndConfirm({ asset, amount, to: bob.email, request_id: `batch-${i}` }));
    }
    expect(await stack.payments.worker.runOnce()).toBe(5);
    const outcomes = await Promise.all(sends.map((s) => statusOf(s.intent_id)));
    expect(outcomes.map((o) => [o.status, o.failure_reason])).toEqual([
      ['completed', null],
      ['completed', null],
      ['failed', 'insufficient_funds'],
      ['completed', null],
      ['failed', 'insufficient_funds'],
    ]);
    for (const o of outcomes) expect(o.message_id).toMatch(/^msg_/);
    // Exactly one ledger transaction and one payment per completed send; none for the failed.
    for (const [i, s] of sends.entries()) {
      const expected = outcomes[i]!.status === 'completed' ? 1 : 0;
      expect(await count(stack, 'pay_ledger_transactions', sql`intent_id = ${s.intent_id}::uuid`)).toBe(expected);
      expect(await count(stack, 'pay_payments', sql`send_intent_id = ${s.intent_id}::uuid`)).toBe(expected);
      expect(await count(stack, 'pay_intent_events', sql`intent_id = ${s.intent_id}::uuid`)).toBe(5);
    }
    const [usdc] = await stack.db.rows<{ balance: string }>(
      sql`select a.balance::text as balance from pay_accounts a join pay_wallets w on w.id = a.wallet_id where w.entity_id = ${alice.id}::uuid and a.asset_id = '153-usdc'`,
    );
    expect(usdc!.balance).toBe('0');
    await assertLedgerSound(stack);

    // The document an agent reads carries the same result shape as the one-by-one path.
    const client = await stack.mcpClient('payments-test', alice.key);
    const doc = parse(await client.callTool({ name: 'intent_status', arguments: { intent_id: sends[0]!.intent_id, workspace_id: sends[0]!.workspace_id } }));
    expect(doc.result).toMatchObject({ payment_status: 'pending', payment_id: expect.any(String), ledger_transaction_id: expect.any(String) });
    await client.close();
  });

  it('takes only sends that this worker holds in submitted; anything else is left for the one-by-one path', async () => {
    const s = await proposeAndConfirm({ asset: 'USDC', amount: '1', to: bob.email, request_id: 'batch-not-held' });
    // Approved but not claimed: the batch must not touch it.
    expect(await settleSendBatch(stack.db.db, 'someone-else', [s.intent_id])).toEqual([]);
    expect((await statusOf(s.intent_id)).status).toBe('approved');
    expect(await settleSendBatch(stack.db.db, 'someone-else', [])).toEqual([]);
  });
});
