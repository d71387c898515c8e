import { z } from 'zod';
import { describePlan, parseCountQuery } from '../domain/count-query.ts';
import { resolveCallerScope } from './caller-scope.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { CountHeadOut, ModeSchema, QuerySchema, ScopeArgs, ScopeOut } from './match-args.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const Input = z.object({ query: QuerySchema, mode: ModeSchema, ...ScopeArgs }).strict();
const Output = z.object({ ...CountHeadOut, scope: ScopeOut });

export function createCountTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'count',
    title: 'Count occurrences (exhaustive)',
    description:
      'Exhaustive total over a stated scope, with no ranking and no model: `occurrences` (matches) and `documents` (documents with at least one). Use it to establish presence or absence. Modes: exact (default), phrase, fuzzy.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const plan = parseCountQuery(input.query, input.mode);
      const scope = await resolveCallerScope(deps, ctx.session.subject, input.rooms, input.files);
      const compiled = await deps.store.match.compile(plan, scope.match);
      const totals = await deps.store.match.count(compiled);
      return {
        query: input.query,
        mode: plan.mode,
        occurrences: totals.occurrences,
        documents: totals.documents,
        parsed: { ...describePlan(plan), ...(compiled.echo ? { stemmed: compiled.echo } : {}) },
        finding: plan.mode !== 'fuzzy',
        scope: scope.description,
      };
    },
  });
}
