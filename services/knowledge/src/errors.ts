import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { codedErrorResult } from '../../../shared/mcp/tool-result.ts';

/**
 * A failure of one of the fifteen knowledge tools: seed 001 says their error text is a plain
 * message (not the `{error: {code}}` document the deal/intent reads use).
 */
export class KnowledgeToolError extends Error {
  override name = 'KnowledgeToolError';
}

export function plainErrorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Codes of the deal and intent reads (seed 001, "Results, paging and size"). */
export type DealReadErrorCode = 'invalid_arguments' | 'not_found' | 'downstream_failed';

export class DealReadError extends Error {
  override name = 'DealReadError';
  constructor(
    readonly code: DealReadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function dealReadErrorResult(error: DealReadError): CallToolResult {
  return codedErrorResult(error.code, error.message);
}

/** Tools that answer coded errors; every other tool here answers plain messages. */
export const CODED_ERROR_TOOLS: ReadonlySet<string> = new Set(['deal_list', 'deal_get', 'intent_status']);
