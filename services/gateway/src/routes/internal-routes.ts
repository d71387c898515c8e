import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { OboClaims, OboVerification } from '../../../../shared/auth/verify-obo-token.ts';
import type { Config } from '../../../../shared/config.ts';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { PREFIX_PATTERN, UpstreamFileSchema, upstreamInputFromFile } from '../config.ts';
import type { GatewayRegistry } from '../registry/gateway-registry.ts';
import { decideApproval, findApproval, listApprovals, type ApprovalRow } from '../store/approval-store.ts';
import { approvePendingDefinition, listTools } from '../store/tool-store.ts';
import { listUpstreams, notifyRegistryChanged, removeUpstream, requestRefresh, upsertUpstream } from '../store/upstream-store.ts';

const CLAIMS = Symbol('gateway.obo.claims');

function claimsOf(req: Request): OboClaims {
  return (req as unknown as Record<symbol, OboClaims>)[CLAIMS]!;
}

function approvalView(a: ApprovalRow, now: Date) {
  return {
    id: a.id,
    tool: a.tool,
    upstream: a.upstream,
    arguments: a.arguments,
    arguments_sha256: a.argumentsSha256,
    status: a.status === 'pending' && a.expiresAt <= now ? 'expired' : a.status,
    task_id: a.taskId,
    created_at: a.createdAt.toISOString(),
    expires_at: a.expiresAt.toISOString(),
    decided_at: a.decidedAt?.toISOString() ?? null,
    executed_at: a.executedAt?.toISOString() ?? null,
  };
}

/**
 * Internal HTTP the web app calls with an on-behalf-of token minted for this gateway. Approvals
 * require a *personal* session: a connector (an agent) must never approve its own call, which
 * is the whole point of the approval. Registry administration additionally requires the
 * subject to be listed in GATEWAY_ADMIN_SUBJECTS.
 */
export function internalRouter(deps: {
  config: Config;
  db: DbHandle;
  registry: GatewayRegistry;
  verifyOboToken: (token: string) => Promise<OboVerification>;
  adminSubjects: readonly string[];
  now?: () => Date;
}): Router {
  const now = deps.now ?? (() => new Date());
  const router = express.Router();
  const json = express.json({ limit: '64kb' });

  const requirePersonal = async (req: Request, res: Response, next: NextFunction) => {
    const match = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
    const verified = match ? await deps.verifyOboToken(match[1]!) : ({ ok: false, reason: 'invalid' } as const);
    if (!verified.ok) {
      const status = verified.reason === 'unavailable' ? 503 : 401;
      res.status(status).json({ error: status === 503 ? 'temporarily_unavailable' : 'invalid_token' });
      return;
    }
    if (verified.claims.subject_kind !== 'personal') {
      res.status(403).json({ error: 'insufficient_scope', error_description: 'Approvals and registry changes need the account holder signed in.' });
      return;
    }
    (req as unknown as Record<symbol, OboClaims>)[CLAIMS] = verified.claims;
    next();
  };
  const requireAdmin = (req: Request, res: Response, next: NextFunction) => {
    if (!deps.adminSubjects.includes(claimsOf(req).sub)) {
      res.status(403).json({ error: 'not_admin', error_description: 'This account is not a gateway administrator (GATEWAY_ADMIN_SUBJECTS).', subject: claimsOf(req).sub });
      return;
    }
    next();
  };

  // ─── Approvals ───
  router.get('/internal/approvals', requirePersonal, async (req, res) => {
    const at = now();
    res.set('Cache-Control', 'no-store').json({ approvals: (await listApprovals(deps.db, claimsOf(req).sub)).map((a) => approvalView(a, at)) });
  });
  router.get('/internal/approvals/:id', requirePersonal, async (req, res) => {
    const id = z.uuid().safeParse(req.params.id);
    const row = id.success ? await findApproval(deps.db, id.data) : undefined;
    if (!row || row.subject !== claimsOf(req).sub) {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    res.set('Cache-Control', 'no-store').json({ approval: approvalView(row, now()) });
  });
  router.post('/internal/approvals/:id/decision', requirePersonal, json, async (req, res) => {
    const id = z.uuid().safeParse(req.params.id);
    const body = z.strictObject({ decision: z.enum(['approved', 'rejected']) }).safeParse(req.body);
    if (!id.success || !body.success) {
      res.status(400).json({ error: 'invalid_request' });
      return;
    }
    const decided = await decideApproval(deps.db, id.data, claimsOf(req).sub, body.data.decision, now());
    if (!decided) {
      const row = await findApproval(deps.db, id.data);
      if (!row || row.subject !== claimsOf(req).sub) res.status(404).json({ error: 'not_found' });
      else res.status(409).json({ error: 'not_pending', status: approvalView(row, now()).status });
      return;
    }
    res.json({ approval: approvalView(decided, now()) });
  });

  // ─── Registry administration ───
  router.get('/internal/registry', requirePersonal, requireAdmin, async (_req, res) => {
    const [upstreams, tools] = await Promise.all([listUpstreams(deps.db), listTools(deps.db)]);
    res.set('Cache-Control', 'no-store').json({
      upstreams: upstreams.map((u) => ({ ...u, state: deps.registry.health(u.name) })),
      tools: tools.map((t) => ({
        upstream: t.upstream,
        name: t.name,
        advertised_name: t.advertisedName,
        status: t.status,
        definition_sha256: t.definitionSha256,
        pending_sha256: t.pendingSha256,
        description: (t.definition as { description?: string }).description ?? '',
        pending_description: (t.pendingDefinition as { description?: string } | null)?.description ?? null,
      })),
    });
  });
  router.post('/internal/registry/upstreams', requirePersonal, requireAdmin, json, async (req, res) => {
    const parsed = UpstreamFileSchema.safeParse(req.body);
    if (!parsed.success || !PREFIX_PATTERN.test(parsed.data.prefix)) {
      res.status(400).json({ error: 'invalid_request', error_description: parsed.success ? 'bad prefix' : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      return;
    }
    try {
      await upsertUpstream(deps.db, upstreamInputFromFile(parsed.data, deps.config, 'web'));
    } catch (err) {
      if (/gw_upstreams_prefix_key|23505/.test(String((err as Error).message) + String((err as { cause?: Error }).cause?.message))) {
        res.status(409).json({ error: 'prefix_taken' });
        return;
      }
      throw err;
    }
    await deps.registry.refreshDue();
    res.status(201).json({ ok: true });
  });
  router.post('/internal/registry/upstreams/:name/remove', requirePersonal, requireAdmin, async (req, res) => {
    const removed = await removeUpstream(deps.db, String(req.params.name));
    await deps.registry.reload();
    res.status(removed ? 200 : 404).json({ removed });
  });
  router.post('/internal/registry/upstreams/:name/refresh', requirePersonal, requireAdmin, async (req, res) => {
    const n = await requestRefresh(deps.db, String(req.params.name));
    await deps.registry.refreshDue();
    res.status(n ? 200 : 404).json({ requested: n });
  });
  router.post('/internal/registry/tools/:upstream/:name/approve', requirePersonal, requireAdmin, json, async (req, res) => {
    const body = z.strictObject({ pending_sha256: z.string().regex(/^[0-9a-f]{64}$/) }).safeParse(req.body);
    if (!body.success) {
      res.status(400).json({ error: 'invalid_request' });
      return;
    }
    const ok = await approvePendingDefinition(deps.db, String(req.params.upstream), String(req.params.name), body.data.pending_sha256);
    if (ok) await notifyRegistryChanged(deps.db);
    await deps.registry.reload();
    res.status(ok ? 200 : 409).json({ approved: ok });
  });
  return router;
}
