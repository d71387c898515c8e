import { z } from 'zod';
import type { Session } from '../../../../shared/auth/session.ts';
import { defineTool, type ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { proposeOrder } from '../domain/pipeline-order.ts';
import { PaymentsError } from '../errors.ts';
import { listWorkspaces } from '../store/directory-store.ts';
import { directEdges, edgesAmong, findTask, listTasks, transitivePredecessors, type Task } from '../store/pipeline-store.ts';
import { buildPage, Cursor, Limit, PageFields, pageStart, READ_ANNOTATIONS, runTool, type PaymentsToolDeps } from './tool-kit.ts';

const TaskSchema = z.object({
  task_id: z.string(),
  workspace_id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(['todo', 'in_progress', 'blocked', 'done']),
  agreement_id: z.string().nullable(),
  created_at: z.string(),
});

export function taskDocument(t: Task): z.infer<typeof TaskSchema> {
  return {
    task_id: t.id,
    workspace_id: t.workspaceId,
    title: t.title,
    description: t.description,
    status: t.status as z.infer<typeof TaskSchema>['status'],
    agreement_id: t.agreementId,
    created_at: t.createdAt.toISOString(),
  };
}

/** Everything readable is in one of the caller's workspaces; a task elsewhere is simply not found. */
async function visibleWorkspaces(deps: PaymentsToolDeps, session: Session, workingGroupId?: string): Promise<string[]> {
  const all = (await listWorkspaces(deps.handle.db, session.subject)).map((w) => w.id);
  if (!workingGroupId) return all;
  if (!all.includes(workingGroupId)) throw new PaymentsError('not_found', `working_group_id: no workspace ${workingGroupId} you belong to`);
  return [workingGroupId];
}

export function createPipelineTools(deps: PaymentsToolDeps): ToolDefinition<any>[] {
  const list = defineTool({
    name: 'pipeline/list_tasks',
    title: 'List pipeline tasks',
    description: 'Pipeline tasks across your workspaces (or one working group), optionally by status.',
    inputSchema: z.strictObject({
      working_group_id: z.uuid().optional(),
      status: z.enum(['todo', 'in_progress', 'blocked', 'done']).optional(),
      limit: Limit,
      cursor: Cursor,
    }),
    outputSchema: z.object({ tasks: z.array(TaskSchema), ...PageFields }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const workspaces = await visibleWorkspaces(deps, session, input.working_group_id);
        const paging = { list: 'pipeline/list_tasks', scope: [session.subject, input.working_group_id ?? null, input.status ?? null], limit: input.limit, cursor: input.cursor };
        const after = pageStart(paging);
        const rows = await listTasks(deps.handle.db, workspaces, { ...(input.status ? { status: input.status } : {}), ...(after ? { after } : {}), limit: input.limit + 1 });
        return buildPage(paging, rows, (t) => t.id, 'tasks', taskDocument);
      }),
  });

  const describe = defineTool({
    name: 'pipeline/describe_task',
    title: 'Describe a pipeline task',
    description: 'One task with its direct predecessors and successors.',
    inputSchema: z.strictObject({ task_id: z.uuid() }),
    outputSchema: z.object({ task: TaskSchema, predecessors: z.array(TaskSchema), successors: z.array(TaskSchema) }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const workspaces = await visibleWorkspaces(deps, session);
        const task = await findTask(deps.handle.db, workspaces, input.task_id);
        if (!task) throw new PaymentsError('not_found', `task_id: no task ${input.task_id} in your workspaces`);
        const edges = await directEdges(deps.handle.db, task.id);
        const visible = (t: Task) => workspaces.includes(t.workspaceId);
        return { task: taskDocument(task), predecessors: edges.predecessors.filter(visible).map(taskDocument), successors: edges.successors.filter(visible).map(taskDocument) };
      }),
  });

  const propose = defineTool({
    name: 'pipeline/propose',
    title: 'Propose an execution order',
    description:
      'Plan an order for open tasks (all open tasks of a working group, or the ones named): stages whose predecessors are all earlier. Read-only — it writes nothing; tasks in a dependency cycle are reported.',
    inputSchema: z.strictObject({
      working_group_id: z.uuid().optional(),
      task_ids: z.array(z.uuid()).min(1).max(100).optional().describe('Plan just these tasks; default every open task.'),
    }),
    outputSchema: z.object({ stages: z.array(z.array(TaskSchema)), cyclic: z.array(z.string()), task_count: z.number().int() }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const workspaces = await visibleWorkspaces(deps, session, input.working_group_id);
        let chosen: Task[];
        if (input.task_ids) {
          chosen = [];
          for (const id of new Set(input.task_ids)) {
            const t = await findTask(deps.handle.db, workspaces, id);
            if (!t) throw new PaymentsError('not_found', `task_ids: no task ${id} in your workspaces`);
            chosen.push(t);
          }
        } else {
          chosen = (await listTasks(deps.handle.db, workspaces, { limit: 100 })).filter((t) => t.status !== 'done');
        }
        const byId = new Map(chosen.map((t) => [t.id, t]));
        const plan = proposeOrder([...byId.keys()], await edgesAmong(deps.handle.db, [...byId.keys()]));
        return { stages: plan.order.map((stage) => stage.map((id) => taskDocument(byId.get(id)!))), cyclic: plan.cyclic, task_count: byId.size };
      }),
  });

  const predecessors = defineTool({
    name: 'pipeline/find_predecessors',
    title: 'Find predecessors',
    description: 'Every task that must finish before this one, transitively, with its distance.',
    inputSchema: z.strictObject({ task_id: z.uuid(), max_depth: z.number().int().min(1).max(50).default(10) }),
    outputSchema: z.object({ task_id: z.string(), predecessors: z.array(TaskSchema.extend({ depth: z.number().int() })) }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const workspaces = await visibleWorkspaces(deps, session);
        const task = await findTask(deps.handle.db, workspaces, input.task_id);
        if (!task) throw new PaymentsError('not_found', `task_id: no task ${input.task_id} in your workspaces`);
        const found = await transitivePredecessors(deps.handle.db, workspaces, task.id, input.max_depth);
        return { task_id: task.id, predecessors: found.map((t) => ({ ...taskDocument(t), depth: t.depth })) };
      }),
  });

  return [list, describe, propose, predecessors];
}
