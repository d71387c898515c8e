import { z } from 'zod';
import { resolveCallerScope } from './caller-scope.ts';
import { docId, entityId, roomSource } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { ScopeArgs } from './match-args.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 50;
const KINDS = ['organization', 'person', 'money', 'percentage', 'date', 'defined_term', 'section', 'identifier'] as const;
const Input = z
  .object({
    kind: z.enum(KINDS).optional(),
    query: z.string().min(1).max(200).optional().describe('Substring of the entity label or key (case-insensitive).'),
    ...ScopeArgs,
    limit: limitSchema(DEFAULT_LIMIT, LIST_CAP),
    cursor: cursorSchema,
  })
  .strict();
const Output = z.object({
  entities: z.array(z.looseObject({ entity_id: z.string(), kind: z.string(), label: z.string(), mentions: z.number().int(), source: z.looseObject({}) })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

export function createEntitiesTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'entities',
    title: 'List entities',
    description:
      'Entities from the knowledge graphs (organisations, people, money with currency, percentages, dates, defined terms, section numbers, identifiers such as CUSIP/LEI/ACN/EIN), most-mentioned first, with their first mentions (offsets into DOC: text).',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'entities', input, DEFAULT_LIMIT, LIST_CAP);
      const scope = await resolveCallerScope(deps, ctx.session.subject, input.rooms, input.files);
      const rows = await deps.store.graph.entities(scope.match.roomIds ?? [], { kind: input.kind, query: input.query, documentIds: scope.match.documentIds }, page.limit + 1, page.offset);
      const mentions = await deps.store.graph.mentions(rows.slice(0, page.limit).map((r) => r.id), 3);
      const entities = rows.map((e) => ({
        entity_id: entityId(e.id),
        kind: e.kind,
        label: e.label,
        key: e.key,
        attrs: e.attrs,
        mentions: e.mentionCount,
        first_mentions: mentions.filter((m) => m.entityId === e.id).map((m) => ({ doc_id: docId(e.documentId), start: m.startOffset, end: m.endOffset })),
        doc_id: docId(e.documentId),
        name: e.documentName,
        source: roomSource(e.documentId, e.roomId, e.roomName),
      }));
      const { items, ...rest } = finishPage(deps, ctx, 'entities', input, page, entities);
      return { entities: items, ...rest };
    },
  });
}
