import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Success: the same document as a text block and as `structuredContent` (seed 001, "Results
 * and failures"), so clients that read either see the same thing.
 */
export function jsonToolResult(document: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(document) }], structuredContent: document };
}

/**
 * Failure is a result, not a protocol error: `isError: true`, the error document in the text
 * block, and no `structuredContent` — it could not validate against the success schema, and
 * conforming clients validate whatever structuredContent they are given.
 */
export function errorToolResult(document: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(document) }] };
}

/** The common `{error: {code, message}}` failure shape used by payments and the deal/intent reads. */
export function codedErrorResult(code: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return errorToolResult({ error: { code, message, ...extra } });
}
