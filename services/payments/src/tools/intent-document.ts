import { z } from 'zod';
import { chainModeOf } from '../domain/chain.ts';
import { INTENT_KINDS, INTENT_STATUSES } from '../domain/intent-states.ts';
import type { IntentRow } from '../store/intent-store.ts';

/** `{APP_URL}/private?reader=intent/<workspace_id>/<intent_id>` (seed 001, step 2). */
export function confirmUrl(appUrl: string, workspaceId: string, intentId: string): string {
  return `${appUrl}/private?reader=${encodeURIComponent(`intent/${workspaceId}/${intentId}`).replace(/%2F/g, '/')}`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The full intent document: intent_status, the internal read route and the web page all show this. */
export function intentDocument(row: IntentRow, appUrl: string): Record<string, unknown> {
  return {
    intent_id: row.id,
    workspace_id: row.workspaceId,
    kind: row.kind,
    status: row.status,
    chain_id: row.chainId,
    chain_mode: chainModeOf(row.chainId),
    wallet_id: row.walletId,
    actor: row.actor,
    arguments: row.arguments,
    title: row.title,
    rationale: row.rationale,
    request_id: row.requestId,
    identity_hash: row.identityHash,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    decided_at: iso(row.decidedAt),
    decided_by: row.decidedBy,
    message_id: row.messageId,
    settled_at: iso(row.settledAt),
    failure_reason: row.failureReason,
    result: row.result ?? null,
    confirm_url: confirmUrl(appUrl, row.workspaceId, row.id),
  };
}

export const IntentDocumentSchema = z.object({
  intent_id: z.string(),
  workspace_id: z.string(),
  kind: z.enum(INTENT_KINDS),
  status: z.enum(INTENT_STATUSES),
  chain_id: z.string(),
  chain_mode: z.enum(['test', 'live']),
  wallet_id: z.string(),
  actor: z.record(z.string(), z.unknown()),
  arguments: z.record(z.string(), z.unknown()),
  title: z.string(),
  rationale: z.string(),
  request_id: z.string().nullable(),
  identity_hash: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by: z.string().nullable(),
  message_id: z.string().nullable().describe('Set from submitted on.'),
  settled_at: z.string().nullable(),
  failure_reason: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  confirm_url: z.string(),
});

export const ProposalResultSchema = z.object({
  intent_id: z.string(),
  workspace_id: z.string(),
  status: z.enum(INTENT_STATUSES),
  expires_at: z.string(),
  identity_hash: z.string(),
  confirm_url: z.string().describe('The account holder opens this to confirm or reject; nothing an agent holds can confirm.'),
  created: z.boolean().describe('false: the same proposal was already open and is returned unchanged.'),
});
