import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { assertBalanced, type AccountRef, type Leg } from '../domain/posting-rules.ts';
import { violatedConstraint } from './pg-errors.ts';
import { accounts, ledgerTransactions, postings } from './schema.ts';

/** Raised when the database refused a debit: the funds were not there. Nothing was applied. */
export class InsufficientFunds extends Error {
  override name = 'InsufficientFunds';
}

function accountKey(ref: AccountRef): string {
  return ref.kind === 'wallet' ? `w:${ref.walletId}:${ref.assetId}` : `${ref.kind}:${ref.assetId}`;
}

/**
 * Applies balanced legs as one ledger transaction, inside the caller's database transaction.
 * Balances change only by `balance = balance + delta` in the statement itself — never
 * read-then-write — and the non-negative CHECK is what refuses an overdraft, so two settlements
 * racing for the same funds cannot both succeed. Accounts are updated in one global order so
 * concurrent settlements touching the same accounts queue instead of deadlocking.
 */
export async function applyLegs(
  tx: Db,
  header: { kind: 'faucet' | 'send' | 'accept' | 'swap_open' | 'swap_complete'; chainId: string; intentId?: string; memo?: string },
  legs: readonly Leg[],
): Promise<string> {
  assertBalanced(legs);
  const [txn] = await tx
    .insert(ledgerTransactions)
    .values({ kind: header.kind, chainId: header.chainId, intentId: header.intentId ?? null, memo: header.memo ?? '' })
    .returning({ id: ledgerTransactions.id });
  const ordered = [...legs].sort((a, b) => (accountKey(a.account) < accountKey(b.account) ? -1 : 1));
  const rows: Array<typeof postings.$inferInsert> = [];
  for (const leg of ordered) {
    const accountId = await moveBalance(tx, leg);
    rows.push({ transactionId: txn!.id, accountId, assetId: leg.account.assetId, amount: leg.amount.toString() });
  }
  await tx.insert(postings).values(rows);
  return txn!.id;
}

async function moveBalance(tx: Db, leg: Leg): Promise<string> {
  const { account, amount } = leg;
  const delta = amount.toString();
  try {
    if (account.kind === 'wallet' && amount > 0n) {
      const [row] = await tx
        .insert(accounts)
        .values({ kind: 'wallet', walletId: account.walletId, assetId: account.assetId, balance: delta })
        .onConflictDoUpdate({
          target: [accounts.walletId, accounts.assetId],
          targetWhere: sql`kind = 'wallet'`,
          set: { balance: sql`${accounts.balance} + ${delta}::numeric` },
        })
        .returning({ id: accounts.id });
      return row!.id;
    }
    const where =
      account.kind === 'wallet'
        ? and(eq(accounts.kind, 'wallet'), eq(accounts.walletId, account.walletId), eq(accounts.assetId, account.assetId))
        : and(eq(accounts.kind, account.kind), eq(accounts.assetId, account.assetId));
    const [row] = await tx
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + ${delta}::numeric` })
      .where(where)
      .returning({ id: accounts.id });
    // A debit from an account that was never credited has nothing to spend.
    if (!row) throw new InsufficientFunds(`no ${account.assetId} balance to debit`);
    return row.id;
  } catch (err) {
    if (violatedConstraint(err) === 'pay_accounts_non_negative') throw new InsufficientFunds(`insufficient ${account.assetId} balance`);
    throw err;
  }
}
