import express, { type Router } from 'express';
import type { AccountService } from '../../../auth/src/account-service.ts';
import type { OAuthService } from '../../../auth/src/oauth/oauth-service.ts';
import type { Grant } from '../../../auth/src/store/oauth-grant-store.ts';
import { LIVE_CHAIN_ID } from '../../../../shared/config.ts';
import { html, layout } from '../html.ts';
import { createWebSessionMiddleware, signedInOf, type SignedIn } from '../web-session.ts';

const when = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') : '—');

function connectedAppsPage(signedIn: SignedIn, grants: Grant[], resourceNames: ReadonlyMap<string, string>, flash?: string): string {
  const { user, csrfToken } = signedIn;
  const rows = grants.map(
    (g) => html`<tr data-grant-id="${g.id}"><td class="client-name">${g.clientName}<br><span class="muted">${new URL(g.redirectUri).host || g.redirectUri}</span></td>
<td>${resourceNames.get(g.resource) ?? g.resource}${g.chainId === LIVE_CHAIN_ID ? html` <span class="badge live">LIVE 151</span>` : ''}</td>
<td>${g.scopes.join(' ')}</td><td>${when(g.activatedAt)}</td><td>${when(g.lastUsedAt)}</td>
<td><form method="post" action="/connected-apps/${g.id}/revoke" class="inline"><input type="hidden" name="csrf" value="${csrfToken}"><button class="danger" type="submit">Revoke</button></form></td></tr>`,
  );
  return layout(
    { title: 'Connected apps', active: '/connected-apps', signedInEmail: user.email, csrfToken, ...(flash ? { flash: { kind: 'ok' as const, text: flash } } : {}) },
    html`<section><h1>Connected apps</h1>
<p class="muted">Apps you connected with “Approve” (claude.ai, Claude Code, other MCP clients). Revoking one ends its access at once, including its refresh tokens.</p>
${grants.length ? html`<table id="connected-apps"><thead><tr><th>App</th><th>Server</th><th>Scopes</th><th>Connected (UTC)</th><th>Last used</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted" id="no-connected-apps">No connected apps.</p>`}</section>`,
  );
}

/** "Connected apps": the person's OAuth grants, each revocable. */
export function connectedAppsPageRouter(deps: { accountService: AccountService; oauth: OAuthService }): Router {
  const { accountService, oauth } = deps;
  const web = createWebSessionMiddleware({ accountService });
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const resourceNames = new Map(oauth.resources.map((r) => [r.resource, r.displayName]));

  router.get('/connected-apps', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const flash = req.query.revoked === '1' ? 'The app was disconnected.' : undefined;
    res.set('Cache-Control', 'no-store').type('html').send(connectedAppsPage(signedIn, await oauth.listConnectedApps(signedIn.user.id), resourceNames, flash));
  });

  router.post('/connected-apps/:id/revoke', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const revoked = await oauth.revokeConnectedApp(signedInOf(req).user.id, String(req.params.id));
    res.redirect(303, revoked ? '/connected-apps?revoked=1' : '/connected-apps');
  });

  return router;
}
