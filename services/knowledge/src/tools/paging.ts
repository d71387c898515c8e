import { z } from 'zod';
import { KnowledgeToolError } from '../errors.ts';
import { fitToBudget } from '../domain/page-budget.ts';
import type { ToolContext } from '../../../../shared/mcp/tool.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

/** Hard cap for every list tool (seed 001); `search` has its own, lower, cap. */
export const LIST_CAP = 100;

/**
 * `limit` must be an integer: `"12"` is refused rather than silently defaulted. Past the cap it is
 * clamped, never refused, so the advertised schema carries no maximum.
 */
export function limitSchema(defaultLimit: number, cap: number) {
  return z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Page size: default ${defaultLimit}, values above ${cap} are clamped to ${cap}.`);
}

export const cursorSchema = z.string().min(1).max(2048).optional().describe('Opaque next_cursor from the previous page of this same call.');

export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
}

/** Validates the cursor against (tool, query, caller) and clamps the limit. */
export function readPage(
  deps: KnowledgeToolDeps,
  ctx: ToolContext,
  tool: string,
  args: Record<string, unknown> & { limit?: number; cursor?: string },
  defaultLimit: number,
  cap: number,
): PageRequest {
  const limit = Math.min(args.limit ?? defaultLimit, cap);
  if (args.cursor === undefined) return { limit, offset: 0 };
  const offset = deps.cursors.read(bindingOf(ctx, tool, args), args.cursor);
  if (offset === undefined) throw new KnowledgeToolError(`The cursor was not issued by ${tool} for this query and caller; start again without a cursor.`);
  return { limit, offset };
}

function bindingOf(ctx: ToolContext, tool: string, args: Record<string, unknown>) {
  const { limit: _limit, cursor: _cursor, ...rest } = args;
  return { tool, subject: ctx.session.subject, args: rest };
}

/**
 * Finishes a page: cuts it to the size budget (`truncated`, cursor at the first dropped item)
 * and issues `next_cursor` only while more exist. `fetched` holds up to limit+1 rows so "more
 * exist" is known without a second count.
 */
export function finishPage<T>(
  deps: KnowledgeToolDeps,
  ctx: ToolContext,
  tool: string,
  args: Record<string, unknown>,
  page: PageRequest,
  fetched: readonly T[],
  envelopeBytes = 1024,
): { items: T[]; next_cursor?: string; truncated: boolean } {
  const more = fetched.length > page.limit;
  const candidate = fetched.slice(0, page.limit);
  const { items, truncated } = fitToBudget(candidate, deps.knowledge.pageBudgetBytes, envelopeBytes);
  const nextOffset = page.offset + items.length;
  const hasNext = truncated || more;
  return {
    items,
    truncated,
    ...(hasNext ? { next_cursor: deps.cursors.issue(bindingOf(ctx, tool, args), nextOffset) } : {}),
  };
}
