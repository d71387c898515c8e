import { z } from 'zod';
import { resolveCallerScope } from './caller-scope.ts';
import { docId, fileId, roomSource } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { ScopeArgs } from './match-args.ts';
import { cursorSchema, finishPage, limitSchema, readPage } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const SEARCH_CAP = 25;
const DEFAULT_LIMIT = 10;
const Input = z.object({ query: z.string().min(1).max(500), ...ScopeArgs, limit: limitSchema(DEFAULT_LIMIT, SEARCH_CAP), cursor: cursorSchema }).strict();
const Hit = z.looseObject({ doc_id: z.string(), name: z.string(), start: z.number().int(), end: z.number().int(), text: z.string(), score: z.number(), source: z.looseObject({}) });
const Output = z.object({ query: z.string(), ranked: z.literal(true), note: z.string(), hits: z.array(Hit), next_cursor: z.string().optional(), truncated: z.boolean() });

export function createSearchTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'search',
    title: 'Ranked search',
    description:
      'Best-matching passages across every room you can access (web-search syntax: "quoted phrase", OR, -word). Ranked, never a total: an empty result means nothing scored highly, not that something is absent — use count for that.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'search', input, DEFAULT_LIMIT, SEARCH_CAP);
      const scope = await resolveCallerScope(deps, ctx.session.subject, input.rooms, input.files);
      const rows = await deps.store.search.passages(input.query, 'all', scope.match, page.limit + 1, page.offset);
      const hits = rows.map((r) => ({
        doc_id: docId(r.documentId),
        file_id: fileId(r.documentId),
        name: r.name,
        start: r.startOffset,
        end: r.endOffset,
        text: r.text,
        score: Math.round(r.score * 1e6) / 1e6,
        citation: { doc_id: docId(r.documentId), start: r.startOffset, end: r.endOffset },
        source: roomSource(r.documentId, r.roomId, r.roomName),
      }));
      const { items, ...rest } = finishPage(deps, ctx, 'search', input, page, hits);
      return { query: input.query, ranked: true as const, note: 'Ranked results, not a total. Use count/enumerate for exhaustive answers.', hits: items, ...rest };
    },
  });
}
