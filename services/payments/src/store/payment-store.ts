import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { payments, swaps } from './schema.ts';

export type Payment = typeof payments.$inferSelect;
export type Swap = typeof swaps.$inferSelect;

export async function findPaymentTo(db: Db, id: string, toWalletId: string): Promise<Payment | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.toWalletId, toWalletId)))
    .limit(1);
  return row;
}

export async function findSwapFor(db: Db, id: string, counterpartyWalletId: string): Promise<Swap | undefined> {
  const [row] = await db
    .select()
    .from(swaps)
    .where(and(eq(swaps.id, id), eq(swaps.counterpartyWalletId, counterpartyWalletId)))
    .limit(1);
  return row;
}
