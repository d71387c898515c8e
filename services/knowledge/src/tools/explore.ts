import { z } from 'zod';
import { KnowledgeToolError } from '../errors.ts';
import { docId, entityId, roomSource } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 25;
const Input = z.object({ entity_id: z.string().min(1).max(40), limit: limitSchema(DEFAULT_LIMIT, LIST_CAP), cursor: cursorSchema }).strict();
const Output = z.object({
  entity: z.looseObject({ entity_id: z.string(), kind: z.string(), label: z.string(), source: z.looseObject({}) }),
  relations: z.array(z.looseObject({ kind: z.string(), direction: z.string(), start: z.number().int(), end: z.number().int() })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

/** One step through a graph: an entity, its definition, and the entities it shares clauses with. */
export function createExploreTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'explore',
    title: 'Explore an entity',
    description:
      'An entity (ENT:<id> from entities) with its relations: `defines` (a defined term and the span of its definition) and `co_occurs` (entities in the same clause, weighted by how often). Each relation cites its span in the DOC: text.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'explore', input, DEFAULT_LIMIT, LIST_CAP);
      const id = /^(?:ENT:)?(\d{1,18})$/.exec(input.entity_id.trim())?.[1];
      const rooms = await deps.store.rooms.accessibleRooms(ctx.session.subject);
      const entity = id && (await deps.store.graph.entity(id, rooms.map((r) => r.id)));
      if (!entity) throw new KnowledgeToolError(`No entity "${input.entity_id}" in the rooms you can access.`);
      const [rows, mentions] = await Promise.all([
        deps.store.graph.relations(entity.id, page.limit + 1, page.offset),
        deps.store.graph.mentions([entity.id], 10),
      ]);
      const relations = rows.map((r) => ({
        kind: r.kind,
        direction: r.direction,
        ...(r.otherId ? { other: { entity_id: entityId(r.otherId), kind: r.otherKind, label: r.otherLabel } } : {}),
        weight: r.weight,
        start: r.startOffset,
        end: r.endOffset,
        citation: { doc_id: docId(entity.documentId), start: r.startOffset, end: r.endOffset },
      }));
      const { items, ...rest } = finishPage(deps, ctx, 'explore', input, page, relations);
      return {
        entity: {
          entity_id: entityId(entity.id),
          kind: entity.kind,
          label: entity.label,
          key: entity.key,
          attrs: entity.attrs,
          mentions: entity.mentionCount,
          first_mentions: mentions.map((m) => ({ start: m.startOffset, end: m.endOffset })),
          doc_id: docId(entity.documentId),
          name: entity.documentName,
          source: roomSource(entity.documentId, entity.roomId, entity.roomName),
        },
        relations: items,
        ...rest,
      };
    },
  });
}
