import { z } from 'zod';
import { describePlan, literalPatternJs, parseCountQuery, type MatchPlan } from '../domain/count-query.ts';
import type { DocumentCount, MatchStore } from '../store/match-store.ts';
import { resolveCallerScope } from './caller-scope.ts';
import { docId, fileId, roomSource } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { CountHeadOut, ModeSchema, QuerySchema, ScopeArgs, ScopeOut } from './match-args.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 20;
const MATCHES_PER_DOCUMENT = 10;

const Input = z.object({ query: QuerySchema, mode: ModeSchema, ...ScopeArgs, limit: limitSchema(DEFAULT_LIMIT, LIST_CAP), cursor: cursorSchema }).strict();
const Item = z.looseObject({ doc_id: z.string(), file_id: z.string(), name: z.string(), occurrences: z.number().int(), source: z.looseObject({}) });
const Output = z.object({ ...CountHeadOut, scope: ScopeOut, items: z.array(Item), next_cursor: z.string().optional(), truncated: z.boolean() });

/**
 * Where the matches are inside each listed document: exact/fuzzy locate each match (the same
 * pattern the SQL counted, rendered for JavaScript); phrase reports the matching passages.
 */
export async function locateMatches(match: MatchStore, plan: MatchPlan, rows: readonly DocumentCount[]) {
  const chunks = await match.matchingChunks(plan, rows.map((r) => r.documentId));
  const located = new Map<string, Array<{ start: number; end: number; text: string }>>();
  for (const chunk of chunks) {
    const list = located.get(chunk.documentId) ?? [];
    located.set(chunk.documentId, list);
    if (list.length >= MATCHES_PER_DOCUMENT) continue;
    if (plan.mode === 'phrase') {
      list.push({ start: chunk.startOffset, end: chunk.endOffset, text: chunk.text.slice(0, 240) });
      continue;
    }
    for (const m of chunk.text.matchAll(literalPatternJs(plan))) {
      if (list.length >= MATCHES_PER_DOCUMENT) break;
      const start = chunk.startOffset + m.index;
      const from = Math.max(0, m.index - 60);
      list.push({ start, end: start + m[0].length, text: chunk.text.slice(from, m.index + m[0].length + 60) });
    }
  }
  return located;
}

export function createEnumerateTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'enumerate',
    title: 'Enumerate matching documents (exhaustive)',
    description:
      'Every document in scope that matches, with its occurrence count and where the matches are (first 10 per document), plus the totals. Paged by limit/cursor. Same modes as count.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'enumerate', input, DEFAULT_LIMIT, LIST_CAP);
      const plan = parseCountQuery(input.query, input.mode);
      const scope = await resolveCallerScope(deps, ctx.session.subject, input.rooms, input.files);
      const compiled = await deps.store.match.compile(plan, scope.match);
      const result = await deps.store.match.enumerate(compiled, page.limit + 1, page.offset);
      const located = await locateMatches(deps.store.match, plan, result.rows.slice(0, page.limit));
      const items = result.rows.map((r) => ({
        doc_id: docId(r.documentId),
        file_id: fileId(r.documentId),
        name: r.name,
        occurrences: r.occurrences,
        matches: located.get(r.documentId) ?? [],
        source: roomSource(r.documentId, r.roomId, r.roomName),
      }));
      const finished = finishPage(deps, ctx, 'enumerate', input, page, items);
      return {
        query: input.query,
        mode: plan.mode,
        occurrences: result.occurrences,
        documents: result.documents,
        parsed: { ...describePlan(plan), ...(compiled.echo ? { stemmed: compiled.echo } : {}) },
        finding: plan.mode !== 'fuzzy',
        scope: scope.description,
        ...finished,
      };
    },
  });
}
