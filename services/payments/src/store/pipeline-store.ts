import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { taskPredecessors, tasks } from './schema.ts';

export type Task = typeof tasks.$inferSelect;

export async function insertTask(
  db: Db,
  input: { workspaceId: string; title: string; description?: string; status?: 'todo' | 'in_progress' | 'blocked' | 'done'; agreementId?: string; predecessorIds?: string[] },
): Promise<Task> {
  const [row] = await db
    .insert(tasks)
    .values({ workspaceId: input.workspaceId, title: input.title, description: input.description ?? '', status: input.status ?? 'todo', agreementId: input.agreementId ?? null })
    .returning();
  if (input.predecessorIds?.length) {
    await db.insert(taskPredecessors).values(input.predecessorIds.map((p) => ({ taskId: row!.id, predecessorId: p })));
  }
  return row!;
}

export async function listTasks(db: Db, workspaceIds: readonly string[], opts: { status?: string; after?: string; limit: number }): Promise<Task[]> {
  return db
    .select()
    .from(tasks)
    .where(and(inArray(tasks.workspaceId, [...workspaceIds]), opts.status ? eq(tasks.status, opts.status) : undefined, opts.after ? gt(tasks.id, opts.after) : undefined))
    .orderBy(asc(tasks.id))
    .limit(opts.limit);
}

export async function findTask(db: Db, workspaceIds: readonly string[], id: string): Promise<Task | undefined> {
  const [row] = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, id), inArray(tasks.workspaceId, [...workspaceIds])))
    .limit(1);
  return row;
}

export async function directEdges(db: Db, taskId: string): Promise<{ predecessors: Task[]; successors: Task[] }> {
  const predecessors = await db
    .select({ task: tasks })
    .from(taskPredecessors)
    .innerJoin(tasks, eq(tasks.id, taskPredecessors.predecessorId))
    .where(eq(taskPredecessors.taskId, taskId))
    .orderBy(asc(tasks.id));
  const successors = await db
    .select({ task: tasks })
    .from(taskPredecessors)
    .innerJoin(tasks, eq(tasks.id, taskPredecessors.taskId))
    .where(eq(taskPredecessors.predecessorId, taskId))
    .orderBy(asc(tasks.id));
  return { predecessors: predecessors.map((r) => r.task), successors: successors.map((r) => r.task) };
}

/**
 * Transitive predecessors with their distance, by a recursive CTE bounded by depth (and by
 * UNION's de-duplication), so a cycle someone inserted cannot make the query run forever.
 */
export async function transitivePredecessors(db: Db, workspaceIds: readonly string[], taskId: string, maxDepth: number): Promise<Array<Task & { depth: number }>> {
  const rows = await db.execute(sql`
    with recursive chain(id, depth) as (
      select predecessor_id, 1 from pay_task_predecessors where task_id = ${taskId}
      union
      select p.predecessor_id, c.depth + 1 from pay_task_predecessors p join chain c on p.task_id = c.id where c.depth < ${maxDepth}
    )
    select t.id, min(c.depth)::int as depth from chain c join pay_tasks t on t.id = c.id
    where t.workspace_id in (${sql.join(workspaceIds.map((w) => sql`${w}::uuid`), sql`, `)})
    group by t.id order by 2, 1 limit 500`);
  const list = (Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows) as Array<{ id: string; depth: number }>;
  if (list.length === 0) return [];
  const found = await db.select().from(tasks).where(inArray(tasks.id, list.map((r) => r.id)));
  const byId = new Map(found.map((t) => [t.id, t]));
  return list.map((r) => ({ ...byId.get(r.id)!, depth: Number(r.depth) }));
}

/** Edges among a set of tasks (for planning an order over them). */
export async function edgesAmong(db: Db, taskIds: readonly string[]): Promise<Array<{ taskId: string; predecessorId: string }>> {
  if (taskIds.length === 0) return [];
  return db
    .select()
    .from(taskPredecessors)
    .where(and(inArray(taskPredecessors.taskId, [...taskIds]), inArray(taskPredecessors.predecessorId, [...taskIds])));
}
