import type { z } from 'zod';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Session } from '../auth/session.ts';

/** What a tool handler knows about the request it serves: who is calling, and the request id. */
export interface ToolContext {
  readonly session: Session;
  readonly requestId: string;
  readonly signal: AbortSignal;
}

/**
 * One tool, defined once: its zod input schema is the single source of the advertised
 * `inputSchema` and of argument validation; `outputSchema` likewise. Services may override the
 * advertised JSON Schema (e.g. alias groups as `anyOf`) with `inputJsonSchema`.
 */
export interface ToolDefinition<I = unknown> {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<I>;
  readonly inputJsonSchema?: Record<string, unknown>;
  readonly outputSchema?: z.ZodType;
  readonly outputJsonSchema?: Record<string, unknown>;
  readonly annotations?: ToolAnnotations;
  /** Receives arguments that already passed `inputSchema`. Returns a finished MCP result. */
  handler(input: I, ctx: ToolContext): Promise<CallToolResult>;
}

/** Identity function whose only job is to infer `I` from the schema for the handler. */
export function defineTool<I>(tool: ToolDefinition<I>): ToolDefinition<I> {
  return tool;
}
