import { z } from 'zod';
import { parseCountQuery } from '../domain/count-query.ts';
import { KnowledgeToolError } from '../errors.ts';
import { resolveCallerScope } from './caller-scope.ts';
import { knowledgeTool } from './knowledge-tool.ts';
import { ModeSchema, QuerySchema, ScopeArgs } from './match-args.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const Input = z
  .object({
    query: QuerySchema,
    mode: ModeSchema,
    ...ScopeArgs,
    share_with_rooms: z.array(z.string().min(1).max(200)).max(20).optional().describe('Workspaces (ids or names, among yours) whose members may read this set as source {set}.'),
  })
  .strict();
const Output = z.object({ job_id: z.string(), status: z.literal('running') });

/**
 * Async pattern (seed 001): answer `{job_id, status: "running"}` at once and freeze in the
 * background. The snapshot itself is one INSERT … SELECT, so it is consistent however many
 * documents are being ingested meanwhile; `set_status` reads the outcome from the database, so
 * any replica can answer the poll.
 */
export function createFreezeSetTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'freeze_set',
    title: 'Freeze the matching documents as a set',
    description:
      'Snapshots the documents matching {query, mode, rooms, files} into a frozen set (evidence that stays checkable). Returns {job_id, status: "running"} immediately: poll set_status until done, then use set_id. Do not re-submit while waiting; that mints a second snapshot.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(input, ctx) {
      const plan = parseCountQuery(input.query, input.mode);
      const scope = await resolveCallerScope(deps, ctx.session.subject, input.rooms, input.files);
      const shareRoomIds: string[] = [];
      for (const wanted of input.share_with_rooms ?? []) {
        const room = scope.rooms.find((r) => r.id === wanted.replace(/^ROOM:/, '').toLowerCase() || r.name === wanted);
        if (!room) throw new KnowledgeToolError(`No room "${wanted}" among the rooms you can access.`);
        if (room.kind !== 'workspace') throw new KnowledgeToolError(`"${wanted}" is a private notebook; sets are shared into workspaces.`);
        shareRoomIds.push(room.id);
      }
      const set = await deps.store.sets.create({ ownerId: ctx.session.subject, query: input.query, mode: plan.mode, scope: scope.description });
      await deps.store.sets.share(set.id, shareRoomIds, ctx.session.subject);
      const job = (async () => {
        try {
          const compiled = await deps.store.match.compile(plan, scope.match);
          await deps.store.match.freeze(set.id, compiled);
        } catch (err) {
          deps.logger.error({ err, setId: set.id }, 'freeze_set failed');
          await deps.store.sets.markFailed(set.id, 'the snapshot could not be taken').catch(() => {});
        }
      })();
      deps.background.add(job);
      void job.finally(() => deps.background.delete(job));
      return { job_id: set.jobId, status: 'running' as const };
    },
  });
}
