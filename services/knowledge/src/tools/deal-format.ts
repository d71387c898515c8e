import type { DealRow } from '../store/deals-store.ts';
import { toIso } from './format.ts';

export function presentDeal(d: DealRow) {
  return {
    deal_id: d.id,
    workspace_id: d.workspaceId,
    title: d.title,
    status: d.status,
    summary: d.summary,
    terms: d.terms,
    your_role: d.role,
    parties: d.parties,
    created_at: toIso(d.createdAt),
    updated_at: toIso(d.updatedAt),
  };
}
