import { and, eq, sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { gwTaints } from './schema.ts';

export async function recordTaint(db: DbHandle, subject: string, taskId: string, reason: string): Promise<void> {
  await db.db.insert(gwTaints).values({ subject, taskId, reason });
}

/** The newest taint of a task, if any. */
export async function latestTaint(db: DbHandle, subject: string, taskId: string): Promise<Date | undefined> {
  const [row] = await db.db
    .select({ at: sql<Date | string>`max(${gwTaints.createdAt})` })
    .from(gwTaints)
    .where(and(eq(gwTaints.subject, subject), eq(gwTaints.taskId, taskId)));
  return row?.at ? new Date(row.at) : undefined;
}
