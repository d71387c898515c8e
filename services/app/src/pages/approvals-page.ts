import express, { type Router } from 'express';
import { z } from 'zod';
import type { Config } from '../../../../shared/config.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { html, layout, type SafeHtml } from '../html.ts';
import { createWebSessionMiddleware, signedInOf, type SignedIn } from '../web-session.ts';

interface ApprovalView {
  id: string;
  tool: string;
  upstream: string;
  arguments: Record<string, unknown>;
  arguments_sha256: string;
  status: string;
  task_id: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  executed_at: string | null;
}

/**
 * Calls the gateway's internal approval routes as the signed-in person: an on-behalf-of token
 * minted in-process for the gateway's resource, with subject kind `personal` — the gateway
 * refuses approvals from anything else, so an agent holding a connector key cannot approve
 * its own call. The web app never touches gateway tables.
 */
export function gatewayClient(deps: { config: Config; accountService: AccountService }) {
  const base = deps.config.services.gateway.publicUrl;
  return async function callGateway(userId: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
    const { access_token } = await deps.accountService.mintOboToken({
      userId,
      audience: deps.config.services.gateway.resource,
      subjectKind: 'personal',
      chainId: null,
      actor: 'web-app',
    });
    try {
      const res = await fetch(`${base}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${access_token}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal: AbortSignal.timeout(deps.config.authTimeoutMs * 2),
      });
      return { status: res.status, body: await res.json().catch(() => ({})) };
    } catch {
      return { status: 503, body: { error: 'gateway_unreachable' } };
    }
  };
}

function statusBadge(status: string): SafeHtml {
  return html`<span class="badge${status === 'pending' ? ' live' : ''}">${status}</span>`;
}

function approvalDetail(a: ApprovalView, csrfToken: string): SafeHtml {
  const decide =
    a.status === 'pending'
      ? html`<form method="post" action="/approvals/${a.id}/decision" class="inline"><input type="hidden" name="csrf" value="${csrfToken}"><input type="hidden" name="decision" value="approved"><button type="submit" id="approve">Approve</button></form>
<form method="post" action="/approvals/${a.id}/decision" class="inline"><input type="hidden" name="csrf" value="${csrfToken}"><input type="hidden" name="decision" value="rejected"><button class="danger" type="submit" id="reject">Reject</button></form>`
      : '';
  return html`<section data-approval-id="${a.id}"><h1>Approve a tool call?</h1>
<p>An agent using your connector asked the gateway to run <strong><code>${a.tool}</code></strong> (server <code>${a.upstream}</code>). It runs <strong>once</strong>, with exactly these arguments, only if you approve before ${a.expires_at.slice(0, 19).replace('T', ' ')} UTC.</p>
<pre id="approval-arguments">${JSON.stringify(a.arguments, null, 2)}</pre>
<p class="muted">Status: ${statusBadge(a.status)} · argument hash <code>${a.arguments_sha256.slice(0, 16)}…</code>${a.task_id ? html` · task <code>${a.task_id}</code>` : ''}</p>
<p>${decide}</p></section>`;
}

export function approvalsPageRouter(deps: { config: Config; accountService: AccountService; logger: Logger }): Router {
  const web = createWebSessionMiddleware({ accountService: deps.accountService });
  const callGateway = gatewayClient(deps);
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });

  const page = (signedIn: SignedIn, body: SafeHtml, flash?: { kind: 'error' | 'ok'; text: string }) =>
    layout({ title: 'Approvals', active: '/approvals', signedInEmail: signedIn.user.email, csrfToken: signedIn.csrfToken, ...(flash ? { flash } : {}) }, body);

  router.get('/approvals', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const { status, body } = await callGateway(signedIn.user.id, '/internal/approvals');
    res.set('Cache-Control', 'no-store').type('html');
    if (status !== 200) {
      res.status(502).send(page(signedIn, html`<section><h1>Approvals</h1></section>`, { kind: 'error', text: 'The gateway is unavailable; try again shortly.' }));
      return;
    }
    const approvals = body.approvals as ApprovalView[];
    const rows = approvals.map(
      (a) => html`<tr><td><a href="/approvals/${a.id}">${a.tool}</a></td><td>${statusBadge(a.status)}</td><td>${a.created_at.slice(0, 16).replace('T', ' ')}</td><td>${a.expires_at.slice(0, 16).replace('T', ' ')}</td></tr>`,
    );
    res.send(
      page(
        signedIn,
        html`<section><h1>Approvals</h1><p class="muted">Tool calls that may change state wait here until you approve or reject them.</p>
${approvals.length ? html`<table><thead><tr><th>Tool</th><th>Status</th><th>Requested (UTC)</th><th>Expires (UTC)</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">Nothing waiting.</p>`}</section>`,
      ),
    );
  });

  router.get('/approvals/:id', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const id = z.uuid().safeParse(req.params.id);
    const { status, body } = id.success ? await callGateway(signedIn.user.id, `/internal/approvals/${id.data}`) : { status: 404, body: {} };
    res.set('Cache-Control', 'no-store').type('html');
    if (status !== 200) {
      res.status(status === 404 ? 404 : 502).send(page(signedIn, html`<section><h1>Approval</h1><p>No such approval.</p></section>`, status === 404 ? undefined : { kind: 'error', text: 'The gateway is unavailable.' }));
      return;
    }
    const flash = req.query.done === 'approved' ? { kind: 'ok' as const, text: 'Approved. The agent can now run the call once.' } : req.query.done === 'rejected' ? { kind: 'ok' as const, text: 'Rejected. The call will not run.' } : undefined;
    res.send(page(signedIn, approvalDetail(body.approval as ApprovalView, signedIn.csrfToken), flash));
  });

  router.post('/approvals/:id/decision', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const id = z.uuid().safeParse(req.params.id);
    const decision = z.enum(['approved', 'rejected']).safeParse((req.body as Record<string, unknown>).decision);
    if (!id.success || !decision.success) {
      res.status(400).type('text/plain').send('Bad request');
      return;
    }
    const { status } = await callGateway(signedIn.user.id, `/internal/approvals/${id.data}/decision`, { method: 'POST', body: { decision: decision.data } });
    if (status === 200) res.redirect(303, `/approvals/${id.data}?done=${decision.data}`);
    else res.redirect(303, `/approvals/${id.data}`);
  });

  return router;
}
