import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { codedErrorResult } from '../../../../shared/mcp/tool-result.ts';
import type { GatewayRequestContext } from '../mcp/gateway-tool-server.ts';
import type { CallerView } from '../registry/caller-view.ts';
import type { RouteCall } from '../routing/route-call.ts';

export const TaskId = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, 'task_id: letters, digits and . _ : - only');

export const InvokeToolInput = z.strictObject({
  tool: z.string().min(1).max(100),
  arguments: z.record(z.string(), z.unknown()).default({}),
  task_id: TaskId.optional(),
});

/**
 * `invoke_tool`: the read router. Only tools whose pinned definition says `readOnlyHint: true`
 * pass; anything that may change state is refused before the upstream is contacted, with a
 * pointer to the stateful router and its approval step.
 */
export function createInvokeTool(deps: { view: CallerView; routeCall: RouteCall }) {
  return async function invokeTool(args: z.infer<typeof InvokeToolInput>, ctx: GatewayRequestContext): Promise<CallToolResult> {
    const tool = await deps.view.resolveTool(ctx.session, args.tool);
    if (!tool.readOnly) {
      return codedErrorResult('stateful_tool', `${tool.name} may change state, so invoke_tool will not run it. Explain the effect to the user and call invoke_stateful_tool {tool, arguments}; it returns an approval request the account holder confirms in the web app.`, {
        router: 'invoke_stateful_tool',
      });
    }
    const { result } = await deps.routeCall({ session: ctx.session, tool, args: args.arguments, taskId: args.task_id ?? null, signal: ctx.signal });
    return result;
  };
}
