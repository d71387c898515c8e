import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addContact, assertLedgerSound, count, internal, oboFor, parse, person, startPaymentsStack, type Person } from './payments-fixture.ts';
import { CATALOG } from '../../services/payments/src/tools/catalog.ts';

let stack: Awaited<ReturnType<typeof startPaymentsStack>>;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  stack = await startPaymentsStack();
  alice = await person(stack, 'alice@example.com', { fund: { USDC: '1000', TCN30: '500' } });
  bob = await person(stack, 'bob@example.com', { fund: { USDC: '50' } });
  await addContact(stack, alice, bob);
  await addContact(stack, bob, alice);
}, 180_000);
afterAll(async () => stack?.close());

describe('propose → confirm → settle (seed 001)', () => {
  it('lists exactly the 19-tool catalog with schemas and annotations', async () => {
    const client = await stack.mcpClient('payments-test', alice.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...CATALOG]);
    for (const t of tools) {
      expect(t.inputSchema).toBeTruthy();
      expect(t.outputSchema).toBeTruthy();
      if (t.name.startsWith('propose_')) expect(t.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
      else expect(t.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    }
    await client.close();
  });

  it('a send settles through escrow and the recipient accepts it', async () => {
    const client = await stack.mcpClient('payments-test', alice.key);
    const proposed = await client.callTool({ name: 'propose_send', arguments: { asset: 'USDC', amount: '12.50', to: bob.email, title: 'Lunch' } });
    if (proposed.isError) console.log(JSON.stringify(proposed));
    expect(proposed.isError).toBeFalsy();
    const p = proposed.structuredContent as any;
    expect(p).toMatchObject({ status: 'proposed', created: true });
    expect(p.confirm_url).toBe(`${stack.config.issuer}/private?reader=intent/${p.workspace_id}/${p.intent_id}`);
    expect(parse(proposed)).toEqual(p);

    const again = await client.callTool({ name: 'propose_send', arguments: { asset: 'usdc', amount: '12.5', to: bob.address } });
    expect((again.structuredContent as any)).toMatchObject({ intent_id: p.intent_id, created: false });

    const confirm = await internal(stack, await oboFor(stack, alice.id, 'personal'), 'POST', `/internal/intents/${p.workspace_id}/${p.intent_id}/confirm`);
    expect(confirm.status).toBe(200);
    expect(confirm.body.intent.status).toBe('approved');

    expect(await stack.payments.worker.runOnce()).toBe(1);
    const status = parse(await client.callTool({ name: 'intent_status', arguments: { intent_id: p.intent_id, workspace_id: p.workspace_id } }));
    expect(status.status).toBe('completed');
    expect(status.message_id).toMatch(/^msg_/);
    expect(status.history.map((h: any) => h.to)).toEqual(['proposed', 'approved', 'submitting', 'submitted', 'completed']);
    const waited = parse(await client.callTool({ name: 'wait_for_settlement', arguments: { message_id: status.message_id, timeout_ms: 1000 } }));
    expect(waited).toMatchObject({ settled: true, status: 'completed' });

    const bobClient = await stack.mcpClient('payments-test', bob.key);
    const accept = parse(await bobClient.callTool({ name: 'propose_accept', arguments: { payment_id: status.result.payment_id } }));
    await internal(stack, await oboFor(stack, bob.id, 'personal'), 'POST', `/internal/intents/${accept.workspace_id}/${accept.intent_id}/confirm`);
    await stack.payments.worker.runOnce();
    const who = parse(await bobClient.callTool({ name: 'whoami', arguments: {} }));
    expect(who.wallet.balances.find((b: any) => b.symbol === 'USDC').amount).toBe('62.5');
    await assertLedgerSound(stack);
    await client.close();
    await bobClient.close();
  });

  it('wait_for_settlement wakes on NOTIFY while the worker settles', async () => {
    const client = await stack.mcpClient('payments-test', alice.key);
    const p = parse(await client.callTool({ name: 'propose_send', arguments: { asset: 'USDC', amount: '1', to: bob.email, request_id: 'wait-test' } }));
    await internal(stack, await oboFor(stack, alice.id, 'personal'), 'POST', `/internal/intents/${p.workspace_id}/${p.intent_id}/confirm`);
    // claim + submit without settling, then wait while a second pass settles
    const { createSettlementWorker } = await import('../../services/payments/src/worker/settlement-worker.ts');
    const { loadPaymentsConfig } = await import('../../services/payments/src/config.ts');
    const cfg = { ...loadPaymentsConfig({}), workerLeaseSeconds: 1 };
    const stopper = createSettlementWorker({ handle: stack.db, config: cfg, logger: (await import('pino')).pino({ level: 'silent' }), dangerouslyStopAfterSubmitted: true });
    await stopper.runOnce();
    const [row] = await stack.db.rows<{ message_id: string }>(sql`select message_id from pay_intents where id = ${p.intent_id}::uuid`);
    const waiting = client.callTool({ name: 'wait_for_settlement', arguments: { message_id: row!.message_id, timeout_ms: 10_000 } });
    await new Promise((r) => setTimeout(r, 1200));
    const resumer = createSettlementWorker({ handle: stack.db, config: cfg, logger: (await import('pino')).pino({ level: 'silent' }) });
    expect(await resumer.runOnce()).toBe(1);
    expect(parse(await waiting)).toMatchObject({ settled: true, status: 'completed' });
    expect(await count(stack, 'pay_ledger_transactions', sql`intent_id = ${p.intent_id}`)).toBe(1);
    await client.close();
  });
});
