import express, { type Router } from 'express';
import type { Config } from '../../../../shared/config.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { html, layout, type SafeHtml } from '../html.ts';
import { createWebSessionMiddleware, signedInOf, type SignedIn } from '../web-session.ts';
import { gatewayClient } from './approvals-page.ts';

interface RegistryView {
  upstreams: Array<{ name: string; url: string; prefix: string; categories: string[]; tier: string; costMicroUsdc: number; timeoutMs: number; state: string; lastError: string | null; discoveredAt: string | null; auth: { kind: string } }>;
  tools: Array<{ upstream: string; name: string; advertised_name: string; status: string; pending_sha256: string | null; description: string; pending_description: string | null }>;
}

/**
 * The gateway registry admin page. Everything goes through the gateway's internal routes with
 * a personal on-behalf-of token; the gateway itself decides who is an admin
 * (GATEWAY_ADMIN_SUBJECTS), so this page cannot grant more than the gateway allows.
 */
export function gatewayRegistryPageRouter(deps: { config: Config; accountService: AccountService; logger: Logger }): Router {
  const web = createWebSessionMiddleware({ accountService: deps.accountService });
  const callGateway = gatewayClient(deps);
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  const page = (signedIn: SignedIn, body: SafeHtml, flash?: { kind: 'error' | 'ok'; text: string }) =>
    layout({ title: 'Gateway registry', active: '/gateway/registry', signedInEmail: signedIn.user.email, csrfToken: signedIn.csrfToken, ...(flash ? { flash } : {}) }, body);

  function registryPage(signedIn: SignedIn, view: RegistryView): SafeHtml {
    const csrf = signedIn.csrfToken;
    const upstreamRows = view.upstreams.map(
      (u) => html`<tr><td><strong>${u.name}</strong><br><code>${u.url}</code></td><td><code>${u.prefix}_</code></td><td>${u.categories.join(', ')}</td><td>${u.tier}</td><td>${u.costMicroUsdc}</td><td>${u.timeoutMs}</td><td>${u.auth.kind}</td><td>${u.state}${u.lastError ? html`<br><span class="muted">${u.lastError}</span>` : ''}</td>
<td><form method="post" action="/gateway/registry/upstreams/${u.name}/refresh" class="inline"><input type="hidden" name="csrf" value="${csrf}"><button class="secondary" type="submit">Refresh</button></form>
<form method="post" action="/gateway/registry/upstreams/${u.name}/remove" class="inline"><input type="hidden" name="csrf" value="${csrf}"><button class="danger" type="submit">Remove</button></form></td></tr>`,
    );
    const quarantined = view.tools.filter((t) => t.status === 'quarantined');
    const quarantineRows = quarantined.map(
      (t) => html`<tr><td><code>${t.advertised_name}</code></td><td><strong>Pinned:</strong> ${t.description}<br><strong>Now:</strong> ${t.pending_description ?? ''}</td>
<td><form method="post" action="/gateway/registry/tools/${t.upstream}/${t.name}/approve" class="inline"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="pending_sha256" value="${t.pending_sha256 ?? ''}"><button type="submit">Approve new definition</button></form></td></tr>`,
    );
    return html`<section><h1>Gateway registry</h1><table><thead><tr><th>Upstream</th><th>Prefix</th><th>Categories</th><th>Tier</th><th>µUSDC/call</th><th>Timeout ms</th><th>Auth</th><th>State</th><th></th></tr></thead><tbody>${upstreamRows}</tbody></table></section>
<section><h2>Quarantined tool definitions</h2>${quarantined.length ? html`<p class="muted">These tools changed their definition since they were pinned. They are hidden and refused until you approve the new text.</p><table><tbody>${quarantineRows}</tbody></table>` : html`<p class="muted">None.</p>`}</section>
<section><h2>Register an upstream</h2><form method="post" action="/gateway/registry/upstreams"><input type="hidden" name="csrf" value="${csrf}">
<label for="name">Name</label><input id="name" name="name" type="text" required>
<label for="url">Streamable HTTP URL</label><input id="url" name="url" type="text" required placeholder="https://example.com/mcp">
<label for="prefix">Prefix</label><input id="prefix" name="prefix" type="text" required placeholder="ext">
<label for="categories">Categories (comma-separated)</label><input id="categories" name="categories" type="text" value="general">
<label for="tier">Tier</label><input id="tier" name="tier" type="text" value="standard">
<label for="cost">Cost per call (micro-USDC)</label><input id="cost" name="cost" type="text" value="5000">
<label for="timeout">Timeout (ms)</label><input id="timeout" name="timeout" type="text" value="30000">
<label for="bearer_env">Bearer token env var (optional)</label><input id="bearer_env" name="bearer_env" type="text" placeholder="GATEWAY_UPSTREAM_EXAMPLE_TOKEN">
<p><button type="submit">Register</button></p></form></section>`;
  }

  router.get('/gateway/registry', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const { status, body } = await callGateway(signedIn.user.id, '/internal/registry');
    res.set('Cache-Control', 'no-store').type('html');
    if (status === 403) {
      res.status(403).send(page(signedIn, html`<section><h1>Gateway registry</h1><p>This account is not a gateway administrator. An operator can add your user id <code>${signedIn.user.id}</code> to <code>GATEWAY_ADMIN_SUBJECTS</code>.</p></section>`));
      return;
    }
    if (status !== 200) {
      res.status(502).send(page(signedIn, html`<section><h1>Gateway registry</h1></section>`, { kind: 'error', text: 'The gateway is unavailable.' }));
      return;
    }
    const flash = typeof req.query.error === 'string' ? { kind: 'error' as const, text: req.query.error.slice(0, 300) } : undefined;
    res.send(page(signedIn, registryPage(signedIn, body as RegistryView), flash));
  });

  router.post('/gateway/registry/upstreams', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const b = req.body as Record<string, string>;
    const payload = {
      name: b.name?.trim(),
      url: b.url?.trim(),
      prefix: b.prefix?.trim(),
      categories: (b.categories ?? '').split(',').map((c) => c.trim()).filter(Boolean),
      tier: b.tier?.trim() || 'standard',
      costMicroUsdc: Number(b.cost ?? 5000),
      timeoutMs: Number(b.timeout ?? 30000),
      ...(b.bearer_env?.trim() ? { auth: { kind: 'bearer', env: b.bearer_env.trim() } } : {}),
    };
    const { status, body } = await callGateway(signedIn.user.id, '/internal/registry/upstreams', { method: 'POST', body: payload });
    res.redirect(303, status === 201 ? '/gateway/registry' : `/gateway/registry?error=${encodeURIComponent(String(body.error_description ?? body.error ?? 'failed'))}`);
  });

  for (const action of ['refresh', 'remove'] as const) {
    router.post(`/gateway/registry/upstreams/:name/${action}`, form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
      await callGateway(signedInOf(req).user.id, `/internal/registry/upstreams/${encodeURIComponent(String(req.params.name))}/${action}`, { method: 'POST' });
      res.redirect(303, '/gateway/registry');
    });
  }

  router.post('/gateway/registry/tools/:upstream/:name/approve', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const { upstream, name } = req.params as { upstream: string; name: string };
    await callGateway(signedInOf(req).user.id, `/internal/registry/tools/${encodeURIComponent(upstream)}/${encodeURIComponent(name)}/approve`, {
      method: 'POST',
      body: { pending_sha256: String((req.body as Record<string, unknown>).pending_sha256 ?? '') },
    });
    res.redirect(303, '/gateway/registry');
  });

  return router;
}
