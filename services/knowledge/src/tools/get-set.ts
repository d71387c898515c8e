import { z } from 'zod';
import { setRef, toIso } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import { presentMember, readableSet } from './set-access.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 50;
const Input = z.object({ set_id: z.string().min(1).max(100), limit: limitSchema(DEFAULT_LIMIT, LIST_CAP), cursor: cursorSchema }).strict();
const Output = z.object({
  set_id: z.string(),
  query: z.string(),
  mode: z.string(),
  frozen_at: z.string().nullable(),
  documents: z.number().int(),
  occurrences: z.number().int(),
  scope: z.looseObject({}),
  access: z.enum(['owner', 'shared']),
  members: z.array(z.looseObject({ name: z.string(), occurrences: z.number().int(), source: z.looseObject({}) })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

export function createGetSetTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'get_set',
    title: 'Read a frozen set',
    description: 'The frozen set: its query, mode, frozen_at, totals and member documents (paged). Membership never changes after freezing.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'get_set', input, DEFAULT_LIMIT, LIST_CAP);
      const set = await readableSet(deps, ctx.session.subject, input.set_id);
      const rows = await deps.store.sets.members(set.id, page.limit + 1, page.offset);
      const members = rows.map((m) => ({ ...presentMember(set, m), occurrences: m.occurrences }));
      const { items, ...rest } = finishPage(deps, ctx, 'get_set', input, page, members);
      return {
        set_id: setRef(set.id),
        query: set.query,
        mode: set.mode,
        frozen_at: toIso(set.frozenAt),
        documents: set.documents ?? 0,
        occurrences: set.occurrences ?? 0,
        scope: set.access === 'owner' ? set.scope : { set: setRef(set.id) },
        access: set.access,
        members: items,
        ...rest,
      };
    },
  });
}
