import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, type ToolContext, type ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { jsonToolResult } from '../../../../shared/mcp/tool-result.ts';
import { KnowledgeToolError, plainErrorResult } from '../errors.ts';
import { QueryParseError } from '../domain/count-query.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * Wraps a knowledge tool so every failure is a plain-message `isError` result (seed 001): an
 * expected refusal says what to fix; anything unexpected is logged and answered generically, so
 * no SQL or stack text reaches the client.
 */
export function knowledgeTool<I>(
  deps: KnowledgeToolDeps,
  tool: Omit<ToolDefinition<I>, 'handler'> & { run(input: I, ctx: ToolContext): Promise<Record<string, unknown> | CallToolResult> },
): ToolDefinition<I> {
  const { run, ...definition } = tool;
  return defineTool<I>({
    ...definition,
    async handler(input, ctx) {
      try {
        const out = await run(input, ctx);
        return isCallToolResult(out) ? out : jsonToolResult(out);
      } catch (err) {
        if (err instanceof KnowledgeToolError || err instanceof QueryParseError) return plainErrorResult(err.message);
        deps.logger.error({ err, tool: tool.name, requestId: ctx.requestId }, 'knowledge tool failed');
        return plainErrorResult(`The ${tool.name} tool failed unexpectedly (request ${ctx.requestId}).`);
      }
    },
  });
}

function isCallToolResult(value: Record<string, unknown> | CallToolResult): value is CallToolResult {
  return Array.isArray((value as CallToolResult).content);
}
