import { z } from 'zod';
import { toIso } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 50;
const Input = z.object({ limit: limitSchema(DEFAULT_LIMIT, LIST_CAP), cursor: cursorSchema }).strict();
const Output = z.object({
  rooms: z.array(z.object({ room: z.string(), name: z.string(), kind: z.string(), role: z.string(), created_at: z.string().nullable() })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

/** The fifteenth knowledge tool: which rooms (workspaces, private notebooks) a search spans. */
export function createRoomsTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'rooms',
    title: 'List rooms',
    description: 'The workspaces and private notebooks you can read; pass their ids or names as `rooms` to scope other tools.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'rooms', input, DEFAULT_LIMIT, LIST_CAP);
      const all = await deps.store.rooms.accessibleRooms(ctx.session.subject);
      const rows = all.slice(page.offset, page.offset + page.limit + 1).map((r) => ({ room: r.id, name: r.name, kind: r.kind, role: r.role, created_at: toIso(r.createdAt) }));
      const { items, ...rest } = finishPage(deps, ctx, 'rooms', input, page, rows);
      return { rooms: items, ...rest };
    },
  });
}
