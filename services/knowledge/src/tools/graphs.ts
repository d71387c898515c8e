import { z } from 'zod';
import { resolveCallerScope } from './caller-scope.ts';
import { docId, kgId, roomSource, toIso } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 25;
const Input = z.object({ rooms: z.array(z.string().min(1).max(200)).max(50).optional(), limit: limitSchema(DEFAULT_LIMIT, LIST_CAP), cursor: cursorSchema }).strict();
const Output = z.object({
  graphs: z.array(z.looseObject({ kg: z.string(), doc_id: z.string(), name: z.string(), entities: z.number().int(), relations: z.number().int(), source: z.looseObject({}) })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

export function createGraphsTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'graphs',
    title: 'List knowledge graphs',
    description: 'One knowledge graph per indexed file: its KG id, entity and relation counts, and entities per kind. Use entities/explore to read one.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'graphs', input, DEFAULT_LIMIT, LIST_CAP);
      const scope = await resolveCallerScope(deps, ctx.session.subject, input.rooms);
      const rows = await deps.store.documents.listDocuments(scope.match.roomIds ?? [], page.limit + 1, page.offset, 'ready');
      const kinds = await deps.store.graph.kindCounts(rows.slice(0, page.limit).map((r) => r.id));
      const graphs = rows.map((d) => ({
        kg: kgId(d.id),
        doc_id: docId(d.id),
        name: d.name,
        entities: d.entityCount,
        relations: d.relationCount,
        by_kind: Object.fromEntries(kinds.filter((k) => k.documentId === d.id).map((k) => [k.kind, k.count])),
        indexed_at: toIso(d.indexedAt),
        source: roomSource(d.id, d.roomId, d.roomName),
      }));
      const { items, ...rest } = finishPage(deps, ctx, 'graphs', input, page, graphs);
      return { graphs: items, ...rest };
    },
  });
}
