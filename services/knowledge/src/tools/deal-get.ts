import { z } from 'zod';
import { DealReadError } from '../errors.ts';
import { presentDeal } from './deal-format.ts';
import { dealReadTool } from './deal-read-tool.ts';
import { READ_ONLY } from './knowledge-tool.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const Input = z.object({ deal_id: z.uuid() }).strict();
const Output = z.looseObject({ deal_id: z.string(), title: z.string(), status: z.string(), parties: z.array(z.looseObject({})) });

export function createDealGetTool(deps: KnowledgeToolDeps) {
  return dealReadTool(deps, {
    name: 'deal_get',
    title: 'Read a deal',
    description: 'One deal you are a party to. Anything else is not_found (existence is not disclosed).',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const deal = await deps.store.deals.get(input.deal_id.toLowerCase(), ctx.session.subject);
      if (!deal) throw new DealReadError('not_found', `No deal ${input.deal_id}.`);
      return presentDeal(deal);
    },
  });
}
