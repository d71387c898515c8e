import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { gwApprovals } from './schema.ts';

export type ApprovalRow = typeof gwApprovals.$inferSelect;

export async function insertApproval(
  db: DbHandle,
  input: Omit<typeof gwApprovals.$inferInsert, 'id' | 'status' | 'createdAt' | 'decidedAt' | 'executedAt' | 'receiptId'>,
): Promise<ApprovalRow> {
  const [row] = await db.db.insert(gwApprovals).values(input).returning();
  return row!;
}

export async function findApproval(db: DbHandle, id: string): Promise<ApprovalRow | undefined> {
  const [row] = await db.db.select().from(gwApprovals).where(eq(gwApprovals.id, id));
  return row;
}

export async function listApprovals(db: DbHandle, subject: string, limit = 50): Promise<ApprovalRow[]> {
  return db.db.select().from(gwApprovals).where(eq(gwApprovals.subject, subject)).orderBy(desc(gwApprovals.createdAt)).limit(limit);
}

/**
 * The account holder decides. Conditional update: only a pending, unexpired approval of this
 * very person changes, so a decision can neither be replayed nor made for someone else.
 */
export async function decideApproval(db: DbHandle, id: string, subject: string, decision: 'approved' | 'rejected', now: Date): Promise<ApprovalRow | undefined> {
  const [row] = await db.db
    .update(gwApprovals)
    .set({ status: decision, decidedAt: now })
    .where(and(eq(gwApprovals.id, id), eq(gwApprovals.subject, subject), eq(gwApprovals.status, 'pending'), gt(gwApprovals.expiresAt, now)))
    .returning();
  return row;
}

/**
 * Claims an approved call for execution exactly once: the row moves `approved → executing` in a
 * single conditional update, so two concurrent retries (or two replicas) cannot both run it.
 */
export async function claimApprovalForExecution(db: DbHandle, id: string, subject: string, now: Date): Promise<ApprovalRow | undefined> {
  const [row] = await db.db
    .update(gwApprovals)
    .set({ status: 'executing' })
    .where(and(eq(gwApprovals.id, id), eq(gwApprovals.subject, subject), eq(gwApprovals.status, 'approved'), gt(gwApprovals.expiresAt, now)))
    .returning();
  return row;
}

export async function markApprovalExecuted(db: DbHandle, id: string, receiptId: string | null): Promise<void> {
  await db.db.update(gwApprovals).set({ status: 'executed', executedAt: sql`now()`, receiptId }).where(eq(gwApprovals.id, id));
}

/** Voids an approved call that may no longer run (its task was tainted after the decision). */
export async function voidApproval(db: DbHandle, id: string): Promise<void> {
  await db.db.update(gwApprovals).set({ status: 'rejected' }).where(eq(gwApprovals.id, id));
}
