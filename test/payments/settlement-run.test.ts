import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openTestDb } from '../support/test-db.ts';
import { createLogger } from '../../shared/log.ts';
import { loadPaymentsConfig } from '../../services/payments/src/config.ts';
import { activateChainAccount, ledgerTotals } from '../../services/payments/src/store/directory-store.ts';
import { fundWallet } from '../../services/payments/src/store/faucet.ts';
import { decideIntent, fileIntent } from '../../services/payments/src/store/intent-store.ts';
import { createSettlementWorker } from '../../services/payments/src/worker/settlement-worker.ts';
import { randomUUID } from 'node:crypto';

let db: Awaited<ReturnType<typeof openTestDb>>;
const logger = createLogger('silent');
const config = { ...loadPaymentsConfig({}), workerBatchSize: 50, workerLeaseSeconds: 1 };
const users: Array<{ id: string; walletId: string }> = [];

beforeAll(async () => {
  db = await openTestDb();
  for (let i = 0; i < 8; i++) {
    const id = randomUUID();
    const { wallet } = await activateChainAccount(db.db, { entityKind: 'user', entityId: id, chainId: '153', displayName: `u${i}`, createdBy: id });
    await fundWallet(db.db, { userId: id, chainId: '153', asset: 'USDC', amount: '300' });
    await fundWallet(db.db, { userId: id, chainId: '153', asset: 'TCN30', amount: '200' });
    users.push({ id, walletId: wallet.id });
  }
}, 180_000);
afterAll(async () => db?.close());

async function proposeApproved(kind: string, actor: { id: string; walletId: string }, args: Record<string, unknown>): Promise<string> {
  const now = new Date();
  const filed = await fileIntent(
    db.db,
    { workspaceId: actor.id, chainId: '153', kind: kind as 'send', actorUserId: actor.id, actor: { user_id: actor.id }, walletId: actor.walletId, arguments: args, requestId: randomUUID(), identityHash: `sha256:${randomUUID()}`, title: '', rationale: '', expiresAt: new Date(now.getTime() + 900_000) },
    now,
  );
  await decideIntent(db.db, { workspaceId: actor.id, intentId: filed.intent.id, userId: actor.id, decision: 'approve', now });
  return filed.intent.id;
}

async function drain(workers: number): Promise<void> {
  const pool = Array.from({ length: workers }, () => createSettlementWorker({ handle: db, config, logger }));
  for (;;) {
    const settled = await Promise.all(pool.map((w) => w.runOnce()));
    const [left] = await db.rows<{ n: number }>(sql`select count(*)::int as n from pay_intents where status in ('approved', 'submitting', 'submitted')`);
    if (Number(left!.n) === 0) return;
    if (settled.every((s) => s === 0)) await new Promise((r) => setTimeout(r, 50));
  }
}

describe('settlement worker (seed 001 "Propose → confirm → settle")', () => {
  it('a random run of 1,000 intents through several workers: each ends once, the ledger balances, nothing is negative', async () => {
    const n = db.kind === 'postgres' ? 1000 : 300;
    let seed = 42;
    const rand = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
    const ids: string[] = [];
    for (let round = 0; round < 3 && ids.length < n; round++) {
      const batch: string[] = [];
      const take = round === 0 ? Math.floor(n * 0.5) : Math.floor(n * 0.25);
      for (let i = 0; i < take; i++) {
        const a = users[rand(users.length)]!;
        let b = users[rand(users.length)]!;
        if (b === a) b = users[(users.indexOf(a) + 1) % users.length]!;
        const amount = BigInt(1 + rand(90)) * 1_000_000n; // up to 90 USDC: some will lack funds
        if (round === 0 || rand(3) === 0) {
          batch.push(await proposeApproved('send', a, { asset_id: '153-usdc', amount_units: amount.toString(), to_wallet_id: b.walletId }));
        } else if (rand(2) === 0) {
          const [p] = await db.rows<{ id: string; to_wallet_id: string }>(sql`select id, to_wallet_id from pay_payments where status = 'pending' order by random() limit 1`);
          if (!p) continue;
          const owner = users.find((u) => u.walletId === p.to_wallet_id)!;
          batch.push(await proposeApproved('accept', owner, { payment_id: p.id }));
        } else {
          batch.push(await proposeApproved('swap_credit_for_cash', a, { credit_asset_id: '153-tcn30', credit_units: amount.toString(), cash_asset_id: '153-usdc', cash_units: (amount / 2n).toString(), counterparty_wallet_id: b.walletId }));
          const [s] = await db.rows<{ id: string; counterparty_wallet_id: string }>(sql`select id, counterparty_wallet_id from pay_swaps where status = 'open' order by random() limit 1`);
          if (s) batch.push(await proposeApproved('complete_swap', users.find((u) => u.walletId === s.counterparty_wallet_id)!, { swap_id: s.id }));
        }
      }
      ids.push(...batch);
      await drain(3);
    }
    const statuses = await db.rows<{ status: string; n: number }>(sql`select status, count(*)::int as n from pay_intents group by status`);
    const byStatus = Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)]));
    expect(Object.keys(byStatus).sort()).toEqual(['completed', 'failed']);
    expect(byStatus.failed).toBeGreaterThan(0);
    // Each intent reached a terminal state exactly once and was applied at most once.
    const [twice] = await db.rows<{ n: number }>(sql`select count(*)::int as n from (select intent_id from pay_intent_events where to_status in ('completed', 'failed') group by intent_id having count(*) > 1) x`);
    expect(Number(twice!.n)).toBe(0);
    const [applied] = await db.rows<{ n: number }>(sql`select count(*)::int as n from pay_ledger_transactions where intent_id is not null`);
    expect(Number(applied!.n)).toBe(byStatus.completed);
    for (const [, total] of await ledgerTotals(db.db)) expect(total).toBe(0n);
    const [neg] = await db.rows<{ n: number }>(sql`select count(*)::int as n from pay_accounts where kind <> 'faucet' and balance < 0`);
    expect(Number(neg!.n)).toBe(0);
  }, 300_000);

  it('a worker killed between submitted and completed: on restart the intent completes once', async () => {
    const [a, b] = users;
    await fundWallet(db.db, { userId: a!.id, chainId: '153', asset: 'USDC', amount: '10' });
    const id = await proposeApproved('send', a!, { asset_id: '153-usdc', amount_units: '1000000', to_wallet_id: b!.walletId });
    const killed = createSettlementWorker({ handle: db, config, logger, dangerouslyStopAfterSubmitted: true });
    await killed.runOnce();
    const [mid] = await db.rows<{ status: string; message_id: string }>(sql`select status, message_id from pay_intents where id = ${id}::uuid`);
    expect(mid!.status).toBe('submitted');
    await new Promise((r) => setTimeout(r, 1200)); // past the 1 s lease
    const restarted = createSettlementWorker({ handle: db, config, logger });
    expect(await restarted.runOnce()).toBe(1);
    expect(await restarted.runOnce()).toBe(0);
    const [end] = await db.rows<{ status: string; message_id: string }>(sql`select status, message_id from pay_intents where id = ${id}::uuid`);
    expect(end).toEqual({ status: 'completed', message_id: mid!.message_id });
    const [applied] = await db.rows<{ n: number }>(sql`select count(*)::int as n from pay_ledger_transactions where intent_id = ${id}::uuid`);
    expect(Number(applied!.n)).toBe(1);
  });
});
