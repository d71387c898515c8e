import { z } from 'zod';
import { setRef, toIso } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 25;
const Input = z.object({ limit: limitSchema(DEFAULT_LIMIT, LIST_CAP), cursor: cursorSchema }).strict();
const Output = z.object({
  sets: z.array(z.looseObject({ set_id: z.string(), job_id: z.string(), status: z.string(), access: z.string() })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

export function createSetsTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'sets',
    title: 'List frozen sets',
    description: 'Frozen sets you created or that were shared into one of your workspaces, newest first.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'sets', input, DEFAULT_LIMIT, LIST_CAP);
      const rooms = await deps.store.rooms.accessibleRooms(ctx.session.subject);
      const rows = await deps.store.sets.list(ctx.session.subject, rooms.map((r) => r.id), page.limit + 1, page.offset);
      const sets = rows.map((s) => ({
        set_id: setRef(s.id),
        job_id: s.jobId,
        query: s.query,
        mode: s.mode,
        status: s.status,
        access: s.access,
        documents: s.documents,
        occurrences: s.occurrences,
        created_at: toIso(s.createdAt),
        frozen_at: toIso(s.frozenAt),
      }));
      const { items, ...rest } = finishPage(deps, ctx, 'sets', input, page, sets);
      return { sets: items, ...rest };
    },
  });
}
