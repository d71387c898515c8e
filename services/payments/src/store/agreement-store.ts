import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { agreements, scheduledPayments, tasks } from './schema.ts';

export type Agreement = typeof agreements.$inferSelect;
export type ScheduledPayment = typeof scheduledPayments.$inferSelect;

export async function insertAgreement(
  db: Db,
  input: { workspaceId: string; title: string; counterpartyContactId?: string; terms?: string; status?: 'draft' | 'active' | 'completed' | 'terminated' },
): Promise<Agreement> {
  const [row] = await db
    .insert(agreements)
    .values({ workspaceId: input.workspaceId, title: input.title, counterpartyContactId: input.counterpartyContactId ?? null, terms: input.terms ?? '', status: input.status ?? 'active' })
    .returning();
  return row!;
}

export async function insertScheduledPayment(db: Db, input: { agreementId: string; dueAt: Date; assetId: string; units: bigint; status?: 'scheduled' | 'paid' | 'cancelled' }): Promise<ScheduledPayment> {
  const [row] = await db
    .insert(scheduledPayments)
    .values({ agreementId: input.agreementId, dueAt: input.dueAt, assetId: input.assetId, amount: input.units.toString(), status: input.status ?? 'scheduled' })
    .returning();
  return row!;
}

/** Visible when filed in one of the caller's workspaces. */
export async function findAgreement(db: Db, workspaceIds: readonly string[], id: string): Promise<Agreement | undefined> {
  const [row] = await db
    .select()
    .from(agreements)
    .where(and(eq(agreements.id, id), inArray(agreements.workspaceId, [...workspaceIds])))
    .limit(1);
  return row;
}

export async function scheduleOf(db: Db, agreementId: string, limit = 500): Promise<ScheduledPayment[]> {
  return db.select().from(scheduledPayments).where(eq(scheduledPayments.agreementId, agreementId)).orderBy(asc(scheduledPayments.dueAt), asc(scheduledPayments.id)).limit(limit);
}

export async function nextScheduledPayment(db: Db, agreementId: string, now: Date): Promise<ScheduledPayment | undefined> {
  const [row] = await db
    .select()
    .from(scheduledPayments)
    .where(and(eq(scheduledPayments.agreementId, agreementId), eq(scheduledPayments.status, 'scheduled'), gt(scheduledPayments.dueAt, new Date(now.getTime() - 1))))
    .orderBy(asc(scheduledPayments.dueAt), asc(scheduledPayments.id))
    .limit(1);
  return row;
}

export async function tasksOfAgreement(db: Db, agreementId: string, limit = 200) {
  return db.select().from(tasks).where(eq(tasks.agreementId, agreementId)).orderBy(asc(tasks.id)).limit(limit);
}
