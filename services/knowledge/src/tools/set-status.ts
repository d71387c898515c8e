import { z } from 'zod';
import { KnowledgeToolError } from '../errors.ts';
import { parseId, setRef, toIso } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const Input = z.object({ job_id: z.string().min(1).max(100) }).strict();
const Output = z.object({
  job_id: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  set_id: z.string().optional(),
  documents: z.number().int().optional(),
  occurrences: z.number().int().optional(),
  frozen_at: z.string().optional(),
  error: z.string().optional(),
});

export function createSetStatusTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'set_status',
    title: 'Status of a freeze_set job',
    description: 'Poll with the job_id from freeze_set every few seconds until status is done or failed; done carries set_id.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const parsed = parseId(input.job_id, ['JOB']);
      const rooms = await deps.store.rooms.accessibleRooms(ctx.session.subject);
      const set = parsed && (await deps.store.sets.byJob(parsed.id, ctx.session.subject, rooms.map((r) => r.id)));
      if (!set) throw new KnowledgeToolError(`No freeze job "${input.job_id}".`);
      return {
        job_id: set.jobId,
        status: set.status,
        ...(set.status === 'done'
          ? { set_id: setRef(set.id), documents: set.documents ?? 0, occurrences: set.occurrences ?? 0, frozen_at: toIso(set.frozenAt) ?? undefined }
          : {}),
        ...(set.status === 'failed' ? { error: set.error ?? 'failed' } : {}),
      };
    },
  });
}
