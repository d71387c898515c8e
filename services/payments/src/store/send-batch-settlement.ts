import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { assertBalanced, sendLegs } from '../domain/posting-rules.ts';
import { accounts, intents, ledgerTransactions, payments, postings } from './schema.ts';

/**
 * Settles many submitted `send` intents in ONE transaction with a constant number of round
 * trips (lock intents, lock accounts, four set-based writes), instead of ~11 per intent. Sends
 * all credit the one escrow account of their asset, so per-intent transactions queue on that
 * row lock; here the lock is taken once per batch.
 *
 * The accounts are locked `FOR UPDATE` first and each intent is checked against the running
 * balance in order, so an intent without the funds ends `failed: insufficient_funds` exactly as
 * the per-intent path would; the non-negative CHECK still guards the aggregated UPDATE, and any
 * database error rolls the whole batch back for the caller to settle one by one.
 *
 * Returns the ids it settled (completed or failed); the caller settles the rest individually.
 */
export async function settleSendBatch(db: Db, workerId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: intents.id, chainId: intents.chainId, walletId: intents.walletId, arguments: intents.arguments, decidedAt: intents.decidedAt })
      .from(intents)
      .where(and(inArray(intents.id, [...ids]), eq(intents.kind, 'send'), eq(intents.status, 'submitted'), eq(intents.claimedBy, workerId)))
      .orderBy(asc(intents.id))
      .for('update', { skipLocked: true });
    if (rows.length === 0) return [];
    // Locked in id order (no deadlocks between batches); funds go to sends in the order people
    // confirmed them, as one-by-one settlement in claim order would.
    const sends = rows
      .map((r) => {
        const args = r.arguments as Record<string, string>;
        return { ...r, assetId: args.asset_id!, toWalletId: args.to_wallet_id!, units: BigInt(args.amount_units!) };
      })
      .sort((a, b) => (a.decidedAt?.getTime() ?? 0) - (b.decidedAt?.getTime() ?? 0) || (a.id < b.id ? -1 : 1));

    // Escrow before wallets, wallets by id: the order the per-intent path locks in.
    const assetIds = [...new Set(sends.map((s) => s.assetId))];
    const pairs = [...new Map(sends.map((s) => [`${s.walletId}:${s.assetId}`, s])).values()];
    const locked = await tx
      .select({ id: accounts.id, kind: accounts.kind, walletId: accounts.walletId, assetId: accounts.assetId, balance: accounts.balance })
      .from(accounts)
      .where(
        sql`(${accounts.kind} = 'escrow' and ${inArray(accounts.assetId, assetIds)}) or (${accounts.kind} = 'wallet' and (${accounts.walletId}, ${accounts.assetId}) in (${sql.join(
          pairs.map((p) => sql`(${p.walletId}::uuid, ${p.assetId})`),
          sql`, `,
        )}))`,
      )
      .orderBy(sql`${accounts.kind} = 'wallet'`, asc(accounts.walletId), asc(accounts.assetId))
      .for('update');
    const balance = new Map(locked.map((a) => [a.id, BigInt(a.balance)]));
    const accountOf = new Map(locked.map((a) => [a.kind === 'escrow' ? `escrow:${a.assetId}` : `${a.walletId}:${a.assetId}`, a.id]));

    const completed: Array<(typeof sends)[number] & { from: string; escrow: string }> = [];
    const failed: string[] = [];
    for (const s of sends) {
      const from = accountOf.get(`${s.walletId}:${s.assetId}`);
      const escrow = accountOf.get(`escrow:${s.assetId}`);
      if (!escrow) throw new Error(`no escrow account for ${s.assetId}`);
      if (!from || balance.get(from)! < s.units) {
        failed.push(s.id);
        continue;
      }
      assertBalanced(sendLegs(s.walletId, s.assetId, s.units));
      balance.set(from, balance.get(from)! - s.units);
      balance.set(escrow, balance.get(escrow)! + s.units);
      completed.push({ ...s, from, escrow });
    }

    const result = new Map<string, Record<string, unknown>>();
    if (completed.length) {
      const paid = await tx
        .insert(payments)
        .values(completed.map((s) => ({ chainId: s.chainId, assetId: s.assetId, fromWalletId: s.walletId, toWalletId: s.toWalletId, amount: s.units.toString(), sendIntentId: s.id })))
        .returning({ id: payments.id, intentId: payments.sendIntentId });
      const txns = await tx
        .insert(ledgerTransactions)
        .values(completed.map((s) => ({ kind: 'send', chainId: s.chainId, intentId: s.id })))
        .returning({ id: ledgerTransactions.id, intentId: ledgerTransactions.intentId });
      const txnOf = new Map(txns.map((t) => [t.intentId!, t.id]));
      const paymentOf = new Map(paid.map((p) => [p.intentId, p.id]));
      const deltas = new Map<string, bigint>();
      for (const s of completed) {
        deltas.set(s.from, (deltas.get(s.from) ?? 0n) - s.units);
        deltas.set(s.escrow, (deltas.get(s.escrow) ?? 0n) + s.units);
        result.set(s.id, { payment_id: paymentOf.get(s.id), payment_status: 'pending', ledger_transaction_id: txnOf.get(s.id) });
      }
      // balance = balance + delta, in the statement: the CHECK has the last word.
      await tx.execute(
        sql`update pay_accounts a set balance = a.balance + v.delta from (values ${sql.join(
          [...deltas].filter(([, d]) => d !== 0n).map(([id, d]) => sql`(${id}::uuid, ${d.toString()}::numeric)`),
          sql`, `,
        )}) as v(id, delta) where a.id = v.id`,
      );
      await tx.insert(postings).values(
        completed.flatMap((s) => [
          { transactionId: txnOf.get(s.id)!, accountId: s.escrow, assetId: s.assetId, amount: s.units.toString() },
          { transactionId: txnOf.get(s.id)!, accountId: s.from, assetId: s.assetId, amount: (-s.units).toString() },
        ]),
      );
    }
    const outcomes = [
      ...completed.map((s) => sql`(${s.id}::uuid, 'completed', null::text, ${JSON.stringify(result.get(s.id))}::jsonb)`),
      ...failed.map((id) => sql`(${id}::uuid, 'failed', 'insufficient_funds', null::jsonb)`),
    ];
    await tx.execute(
      sql`update pay_intents i set status = v.status, failure_reason = v.reason, result = v.result, settled_at = now(), last_actor = ${`worker:${workerId}`}
          from (values ${sql.join(outcomes, sql`, `)}) as v(id, status, reason, result) where i.id = v.id`,
    );
    return sends.map((s) => s.id);
  });
}
