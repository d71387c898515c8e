import { z } from 'zod';
import { DealReadError } from '../errors.ts';
import { presentDeal } from './deal-format.ts';
import { dealReadTool } from './deal-read-tool.ts';
import { READ_ONLY } from './knowledge-tool.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, type PageRequest } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 25;
const Input = z.object({ status: z.string().min(1).max(40).optional(), limit: limitSchema(DEFAULT_LIMIT, LIST_CAP), cursor: cursorSchema }).strict();
const Output = z.object({
  deals: z.array(z.looseObject({ deal_id: z.string(), title: z.string(), status: z.string() })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

export function createDealListTool(deps: KnowledgeToolDeps) {
  return dealReadTool(deps, {
    name: 'deal_list',
    title: 'List your deals',
    description: 'Deals you are a party to, most recently updated first.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const limit = Math.min(input.limit ?? DEFAULT_LIMIT, LIST_CAP);
      const { limit: _l, cursor: _c, ...args } = input;
      let offset = 0;
      if (input.cursor !== undefined) {
        const read = deps.cursors.read({ tool: 'deal_list', subject: ctx.session.subject, args }, input.cursor);
        if (read === undefined) throw new DealReadError('invalid_arguments', 'The cursor was not issued by deal_list for this query and caller.');
        offset = read;
      }
      const page: PageRequest = { limit, offset };
      const rows = await deps.store.deals.list(ctx.session.subject, limit + 1, offset, input.status);
      const { items, ...rest } = finishPage(deps, ctx, 'deal_list', input, page, rows.map(presentDeal));
      return { deals: items, ...rest };
    },
  });
}
