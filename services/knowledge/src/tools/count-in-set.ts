import { z } from 'zod';
import { describePlan, parseCountQuery } from '../domain/count-query.ts';
import { setRef } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { CountHeadOut, ModeSchema, QuerySchema } from './match-args.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import { presentMember, readableSet } from './set-access.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 20;
const Input = z.object({ set_id: z.string().min(1).max(100), query: QuerySchema, mode: ModeSchema, limit: limitSchema(DEFAULT_LIMIT, LIST_CAP), cursor: cursorSchema }).strict();
const Output = z.object({
  ...CountHeadOut,
  set_id: z.string(),
  set_documents: z.number().int(),
  items: z.array(z.looseObject({ name: z.string(), occurrences: z.number().int(), source: z.looseObject({}) })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

/** Counts only inside the set's frozen documents, however many documents were ingested since. */
export function createCountInSetTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'count_in_set',
    title: 'Count inside a frozen set (exhaustive)',
    description: 'Exhaustive count of {query, mode} inside the frozen documents of set_id only, with a paged per-document breakdown.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'count_in_set', input, DEFAULT_LIMIT, LIST_CAP);
      const plan = parseCountQuery(input.query, input.mode);
      const set = await readableSet(deps, ctx.session.subject, input.set_id);
      const compiled = await deps.store.match.compile(plan, { setId: set.id });
      const result = await deps.store.match.enumerate(compiled, page.limit + 1, page.offset);
      const rows = result.rows.map((r) => ({ ...presentMember(set, r), occurrences: r.occurrences }));
      const finished = finishPage(deps, ctx, 'count_in_set', input, page, rows);
      return {
        set_id: setRef(set.id),
        set_documents: set.documents ?? 0,
        query: input.query,
        mode: plan.mode,
        occurrences: result.occurrences,
        documents: result.documents,
        parsed: { ...describePlan(plan), ...(compiled.echo ? { stemmed: compiled.echo } : {}) },
        finding: plan.mode !== 'fuzzy',
        items: finished.items,
        ...(finished.next_cursor ? { next_cursor: finished.next_cursor } : {}),
        truncated: finished.truncated,
      };
    },
  });
}
