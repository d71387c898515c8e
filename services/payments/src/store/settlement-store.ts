import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { acceptLegs, sendLegs, swapCompleteLegs, swapOpenLegs } from '../domain/posting-rules.ts';
import { applyLegs, InsufficientFunds } from './ledger-store.ts';
import type { IntentRow } from './intent-store.ts';
import { intents, payments, swaps } from './schema.ts';

/** A settlement the ledger refused for a business reason; the intent ends `failed` with it. */
export class SettlementRefused extends Error {
  override name = 'SettlementRefused';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Claims approved intents for one worker. `FOR UPDATE SKIP LOCKED` lets several workers (and
 * replicas) claim disjoint batches without waiting on each other or double-claiming.
 */
export async function claimApproved(db: Db, workerId: string, limit: number): Promise<string[]> {
  const rows = await db
    .update(intents)
    .set({ status: 'submitting', claimedBy: workerId, claimedAt: sql`now()`, lastActor: `worker:${workerId}` })
    .where(
      inArray(
        intents.id,
        sql`(select id from pay_intents where status = 'approved' order by decided_at limit ${limit} for update skip locked)`,
      ),
    )
    .returning({ id: intents.id });
  return rows.map((r) => r.id);
}

/**
 * Work a crashed worker left in `submitting`/`submitted` past its lease is taken over. Status
 * does not change here, so the original claim's transitions stay the audited ones.
 */
export async function reclaimStale(db: Db, workerId: string, leaseSeconds: number, limit: number): Promise<Array<{ id: string; status: string }>> {
  return db
    .update(intents)
    .set({ claimedBy: workerId, claimedAt: sql`now()` })
    .where(
      inArray(
        intents.id,
        sql`(select id from pay_intents where status in ('submitting', 'submitted') and claimed_at < now() - make_interval(secs => ${leaseSeconds}) limit ${limit} for update skip locked)`,
      ),
    )
    .returning({ id: intents.id, status: intents.status });
}

/** `submitting → submitted`, minting the message id. Conditional, so a message id is minted once. */
export async function markSubmitted(db: Db, workerId: string, ids: readonly string[]): Promise<Array<{ id: string; messageId: string }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(intents)
    .set({
      status: 'submitted',
      messageId: sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`,
      claimedAt: sql`now()`,
      lastActor: `worker:${workerId}`,
    })
    .where(and(inArray(intents.id, [...ids]), eq(intents.status, 'submitting'), eq(intents.claimedBy, workerId)))
    .returning({ id: intents.id, messageId: intents.messageId });
  return rows.map((r) => ({ id: r.id, messageId: r.messageId! }));
}

export type SettleOutcome = 'completed' | 'failed' | 'skipped';

/**
 * `submitted → completed | failed` in ONE transaction with the ledger postings: a crash leaves
 * either both or neither, so resumed work is applied exactly once (and the ledger's unique
 * intent_id would refuse a second application regardless).
 */
export async function settleSubmitted(db: Db, workerId: string, intentId: string): Promise<SettleOutcome> {
  return db.transaction(async (tx) => {
    const [intent] = await tx
      .select()
      .from(intents)
      .where(and(eq(intents.id, intentId), eq(intents.status, 'submitted'), eq(intents.claimedBy, workerId)))
      // Wait for the row, never skip it: the intent is ours, and whoever holds its lock holds it
      // for one statement — typically another worker's claim (`… FOR UPDATE SKIP LOCKED`), which
      // locks an approved row it saw in its snapshot before finding it already claimed. Skipping
      // left such intents `submitted` until a lease ran out. If another worker did take the
      // intent over, the re-check after the wait sees its claim and we skip.
      .for('update');
    if (!intent) return 'skipped';
    let result: Record<string, unknown> | undefined;
    let failure: string | undefined;
    try {
      result = await tx.transaction((savepoint) => applyIntent(savepoint as unknown as Db, intent));
    } catch (err) {
      if (err instanceof InsufficientFunds) failure = 'insufficient_funds';
      else if (err instanceof SettlementRefused) failure = err.reason;
      else throw err;
    }
    await tx
      .update(intents)
      .set({
        status: failure ? 'failed' : 'completed',
        failureReason: failure ?? null,
        result: result ?? null,
        settledAt: sql`now()`,
        lastActor: `worker:${workerId}`,
      })
      .where(eq(intents.id, intentId));
    return failure ? 'failed' : 'completed';
  });
}

type Args = Record<string, string>;

async function applyIntent(tx: Db, intent: IntentRow): Promise<Record<string, unknown>> {
  const args = intent.arguments as Args;
  const header = { chainId: intent.chainId, intentId: intent.id };
  switch (intent.kind) {
    case 'send': {
      const units = BigInt(args.amount_units!);
      const [payment] = await tx
        .insert(payments)
        .values({
          chainId: intent.chainId,
          assetId: args.asset_id!,
          fromWalletId: intent.walletId,
          toWalletId: args.to_wallet_id!,
          amount: units.toString(),
          sendIntentId: intent.id,
        })
        .returning({ id: payments.id });
      const transactionId = await applyLegs(tx, { ...header, kind: 'send' }, sendLegs(intent.walletId, args.asset_id!, units));
      return { payment_id: payment!.id, payment_status: 'pending', ledger_transaction_id: transactionId };
    }
    case 'accept': {
      // Conditional: a payment is accepted once, by its recipient, however many accepts race.
      const [payment] = await tx
        .update(payments)
        .set({ status: 'accepted', acceptedAt: sql`now()`, acceptIntentId: intent.id })
        .where(and(eq(payments.id, args.payment_id!), eq(payments.status, 'pending'), eq(payments.toWalletId, intent.walletId)))
        .returning();
      if (!payment) throw new SettlementRefused('payment_not_pending');
      const transactionId = await applyLegs(tx, { ...header, kind: 'accept' }, acceptLegs(intent.walletId, payment.assetId, BigInt(payment.amount)));
      return { payment_id: payment.id, payment_status: 'accepted', ledger_transaction_id: transactionId };
    }
    case 'swap_credit_for_cash': {
      const creditUnits = BigInt(args.credit_units!);
      const [swap] = await tx
        .insert(swaps)
        .values({
          chainId: intent.chainId,
          initiatorWalletId: intent.walletId,
          counterpartyWalletId: args.counterparty_wallet_id!,
          creditAssetId: args.credit_asset_id!,
          creditAmount: creditUnits.toString(),
          cashAssetId: args.cash_asset_id!,
          cashAmount: BigInt(args.cash_units!).toString(),
          openIntentId: intent.id,
        })
        .returning({ id: swaps.id });
      const transactionId = await applyLegs(tx, { ...header, kind: 'swap_open' }, swapOpenLegs(intent.walletId, args.credit_asset_id!, creditUnits));
      return { swap_id: swap!.id, swap_status: 'open', ledger_transaction_id: transactionId };
    }
    case 'complete_swap': {
      const [swap] = await tx
        .update(swaps)
        .set({ status: 'completed', completedAt: sql`now()`, completeIntentId: intent.id })
        .where(and(eq(swaps.id, args.swap_id!), eq(swaps.status, 'open'), eq(swaps.counterpartyWalletId, intent.walletId)))
        .returning();
      if (!swap) throw new SettlementRefused('swap_not_open');
      const transactionId = await applyLegs(
        tx,
        { ...header, kind: 'swap_complete' },
        swapCompleteLegs({
          initiatorWalletId: swap.initiatorWalletId,
          counterpartyWalletId: swap.counterpartyWalletId,
          creditAssetId: swap.creditAssetId,
          creditUnits: BigInt(swap.creditAmount),
          cashAssetId: swap.cashAssetId,
          cashUnits: BigInt(swap.cashAmount),
        }),
      );
      return { swap_id: swap.id, swap_status: 'completed', ledger_transaction_id: transactionId };
    }
    default:
      throw new SettlementRefused(`unknown_intent_kind`);
  }
}
