import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { codedErrorResult } from '../../../shared/mcp/tool-result.ts';

/** The wire codes of seed 001 "Results and failures"; a tool failure carries exactly one. */
export type PaymentsErrorCode =
  | 'invalid_params'
  | 'not_found'
  | 'downstream_failed'
  | 'obo_unavailable'
  | 'obo_refused'
  | 'tool_failed'
  | 'CHAIN_MODE_MISMATCH'
  | 'CHAIN_ACCOUNT_REQUIRED'
  | 'intent_refused'
  | 'intent_conflict';

/** Thrown by tools and the domain; the tool edge turns it into an `isError` result. */
export class PaymentsError extends Error {
  override name = 'PaymentsError';
  constructor(
    readonly code: PaymentsErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function paymentsErrorResult(err: PaymentsError): CallToolResult {
  return codedErrorResult(err.code, err.message, err.extra);
}

/** A walletless entity is never activated implicitly; the error names who and where (seed 001). */
export function chainAccountRequired(entity: { kind: 'user' | 'group'; id: string }, chainId: string, authPublicUrl: string): PaymentsError {
  return new PaymentsError(
    'CHAIN_ACCOUNT_REQUIRED',
    `The ${entity.kind} ${entity.id} has no chain account on chain ${chainId}. Activate it with POST ${authPublicUrl}/entities/${entity.kind}/${entity.id}/chain-accounts/${chainId}/activation from a direct personal session (or in the app), then retry.`,
    { entity: { kind: entity.kind, id: entity.id }, chain_id: chainId },
  );
}
