import type { Session } from '../../../../shared/auth/session.ts';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { narrowByScopes, type AccessPolicy } from '../domain/access-policy.ts';
import { unknownTool } from '../mcp/gateway-tool-server.ts';
import { findAccessPolicy } from '../store/access-policy-store.ts';
import type { GatewayRegistry } from './gateway-registry.ts';
import { callerMayUse, type CatalogTool } from './tool-catalog.ts';

/** Policy rows are re-read at most this often per subject, so a change applies within seconds. */
const POLICY_CACHE_MS = 5_000;

/**
 * What one caller can see and call, decided in one place. Listing (search, `tools/list`, the
 * toolset resources, the OpenAI export) and calling (`invoke_*`, direct `tools/call`) all go
 * through `visibleTools`/`resolveTool`, which apply the same `callerMayUse` key.
 */
export function createCallerView(deps: { db: DbHandle; registry: GatewayRegistry; defaultAccess: AccessPolicy; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const policies = new Map<string, { policy: AccessPolicy; atMs: number }>();

  async function policyFor(session: Session): Promise<AccessPolicy> {
    const hit = policies.get(session.subject);
    let base: AccessPolicy;
    if (hit && now() - hit.atMs < POLICY_CACHE_MS) base = hit.policy;
    else {
      base = (await findAccessPolicy(deps.db, session.subject)) ?? deps.defaultAccess;
      if (policies.size > 10_000) policies.clear();
      policies.set(session.subject, { policy: base, atMs: now() });
    }
    return narrowByScopes(base, session.scopes);
  }

  async function visibleTools(session: Session, scope: string | undefined): Promise<CatalogTool[]> {
    await deps.registry.ensureDiscovered(session);
    const policy = await policyFor(session);
    return deps.registry
      .catalog()
      .tools.filter((t) => callerMayUse(policy, t) && (scope === undefined || scope === '*' || t.upstream.categories.includes(scope)));
  }

  async function resolveTool(session: Session, name: string, scope?: string): Promise<CatalogTool> {
    await deps.registry.ensureDiscovered(session);
    const tool = deps.registry.catalog().byName.get(name);
    const policy = await policyFor(session);
    if (!tool || !callerMayUse(policy, tool) || (scope !== undefined && scope !== '*' && !tool.upstream.categories.includes(scope))) throw unknownTool(name);
    return tool;
  }

  return { policyFor, visibleTools, resolveTool, forgetPolicy: (subject: string) => policies.delete(subject) };
}

export type CallerView = ReturnType<typeof createCallerView>;
