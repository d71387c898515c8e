import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { codedErrorResult, jsonToolResult } from '../../../../shared/mcp/tool-result.ts';
import { isAutoApproved } from '../domain/approval-policy.ts';
import { canonicalJson, sha256Hex } from '../domain/canonical-json.ts';
import type { GatewayRequestContext } from '../mcp/gateway-tool-server.ts';
import type { CallerView } from '../registry/caller-view.ts';
import type { CatalogTool } from '../registry/tool-catalog.ts';
import type { RouteCall } from '../routing/route-call.ts';
import { claimApprovalForExecution, findApproval, insertApproval, markApprovalExecuted, voidApproval } from '../store/approval-store.ts';
import { latestTaint } from '../store/taint-store.ts';
import { TaskId } from './invoke-tool.ts';

export const InvokeStatefulToolInput = z.union([
  z.strictObject({ tool: z.string().min(1).max(100), arguments: z.record(z.string(), z.unknown()).default({}), task_id: TaskId.optional() }),
  z.strictObject({ approval_id: z.uuid() }),
]);

export interface StatefulDeps {
  readonly db: DbHandle;
  readonly view: CallerView;
  readonly routeCall: RouteCall;
  readonly approvalTtlSeconds: number;
  /** Where the account holder approves: `${issuer}/approvals/{id}` in the web app. */
  readonly confirmUrl: (approvalId: string) => string;
  readonly now?: () => Date;
}

/**
 * `invoke_stateful_tool`: propose → confirm, generalised (DESIGN §5). Without an approval the
 * exact call is stored and an approval request comes back; the account holder decides in the
 * web app; the same caller then presents the approval id and the *stored* arguments run exactly
 * once. The approval is bound to the tool, its pinned definition, the argument hash, the caller
 * and an expiry, so it cannot be replayed, transplanted to other arguments or another person,
 * or used after the tool was rewritten.
 */
export function createStatefulRouter(deps: StatefulDeps) {
  const now = deps.now ?? (() => new Date());

  async function requestOrAutoRun(session: GatewayRequestContext['session'], tool: CatalogTool, args: Record<string, unknown>, taskId: string | null, signal: AbortSignal | undefined): Promise<CallToolResult> {
    const tainted = (await latestTaint(deps.db, session.subject, taskId ?? 'default')) !== undefined;
    if (isAutoApproved(tool.upstream.autoApprove, tool.upstreamTool, tainted)) {
      // Policy: proposal-only tools (a person confirms the proposal itself) need no second approval.
      const { result } = await deps.routeCall({ session, tool, args, taskId, signal });
      return result;
    }
    const expiresAt = new Date(now().getTime() + deps.approvalTtlSeconds * 1000);
    const approval = await insertApproval(deps.db, {
      subject: session.subject,
      taskId,
      upstream: tool.upstream.name,
      upstreamTool: tool.upstreamTool,
      tool: tool.name,
      definitionSha256: tool.definitionSha256,
      arguments: args,
      argumentsSha256: sha256Hex(canonicalJson(args)),
      expiresAt,
    });
    return jsonToolResult({
      approval_required: true,
      approval_id: approval.id,
      confirm_url: deps.confirmUrl(approval.id),
      expires_at: expiresAt.toISOString(),
      tool: tool.name,
      arguments_sha256: approval.argumentsSha256,
      ...(tainted ? { reason: 'This task received a suspicious tool result earlier, so automatic approval is off for it.' } : {}),
      next_step: 'Ask the account holder to open confirm_url and approve, then call invoke_stateful_tool {approval_id}.',
    });
  }

  async function runApproved(ctx: GatewayRequestContext, approvalId: string): Promise<CallToolResult> {
    const { session } = ctx;
    const at = now();
    const claimed = await claimApprovalForExecution(deps.db, approvalId, session.subject, at);
    if (!claimed) {
      const row = await findApproval(deps.db, approvalId);
      // Someone else's approval reads exactly like a missing one.
      if (!row || row.subject !== session.subject) return codedErrorResult('approval_not_found', 'No such approval for this caller.');
      if (row.status === 'executing' || row.status === 'executed') return codedErrorResult('approval_used', 'This approval was already used; a stateful call runs once. Request a new approval to run it again.');
      if (row.status === 'rejected') return codedErrorResult('approval_rejected', 'The account holder rejected this call (or it was voided).');
      if (row.expiresAt <= at) return codedErrorResult('approval_expired', 'This approval expired before it was used. Request a new one.');
      return codedErrorResult('approval_pending', 'The account holder has not approved this call yet.', { confirm_url: deps.confirmUrl(row.id), expires_at: row.expiresAt.toISOString() });
    }
    const taintedAt = await latestTaint(deps.db, session.subject, claimed.taskId ?? 'default');
    if (taintedAt && claimed.decidedAt && taintedAt > claimed.decidedAt) {
      await voidApproval(deps.db, claimed.id);
      return codedErrorResult('approval_stale', 'This task received a suspicious tool result after the approval was given; request a fresh approval.');
    }
    let tool: CatalogTool;
    try {
      tool = await deps.view.resolveTool(session, claimed.tool);
    } catch {
      await voidApproval(deps.db, claimed.id);
      return codedErrorResult('approval_not_runnable', 'The approved tool is no longer available to this caller.');
    }
    if (tool.definitionSha256 !== claimed.definitionSha256 || sha256Hex(canonicalJson(claimed.arguments)) !== claimed.argumentsSha256) {
      await voidApproval(deps.db, claimed.id);
      return codedErrorResult('approval_not_runnable', 'The tool definition changed after approval; request a new approval.');
    }
    const { result, gateway } = await deps.routeCall({ session, tool, args: claimed.arguments, taskId: claimed.taskId, signal: ctx.signal });
    await markApprovalExecuted(deps.db, claimed.id, gateway.receipt_id);
    return result;
  }

  return {
    requestOrAutoRun,
    async invokeStatefulTool(args: z.infer<typeof InvokeStatefulToolInput>, ctx: GatewayRequestContext): Promise<CallToolResult> {
      if ('approval_id' in args) return runApproved(ctx, args.approval_id);
      const tool = await deps.view.resolveTool(ctx.session, args.tool);
      return requestOrAutoRun(ctx.session, tool, args.arguments, args.task_id ?? null, ctx.signal);
    },
  };
}
