import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, type ToolContext, type ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { codedErrorResult, jsonToolResult } from '../../../../shared/mcp/tool-result.ts';
import { DealReadError, dealReadErrorResult } from '../errors.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

/**
 * The deal and intent reads answer `{"error": {"code", "message"}}` (seed 001). A row the caller
 * is not party to is `not_found`, the same answer as a row that does not exist.
 */
export function dealReadTool<I>(
  deps: KnowledgeToolDeps,
  tool: Omit<ToolDefinition<I>, 'handler'> & { run(input: I, ctx: ToolContext): Promise<Record<string, unknown>> },
): ToolDefinition<I> {
  const { run, ...definition } = tool;
  return defineTool<I>({
    ...definition,
    async handler(input, ctx): Promise<CallToolResult> {
      try {
        return jsonToolResult(await run(input, ctx));
      } catch (err) {
        if (err instanceof DealReadError) return dealReadErrorResult(err);
        deps.logger.error({ err, tool: tool.name, requestId: ctx.requestId }, 'deal read failed');
        // Never -32602/invalid_arguments for our own fault: a generic downstream_failed.
        return codedErrorResult('downstream_failed', `The ${tool.name} tool failed unexpectedly (request ${ctx.requestId}).`);
      }
    },
  });
}
