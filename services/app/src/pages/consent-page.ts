import express, { type Response, type Router } from 'express';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { ConsentError, type ConsentView, type OAuthService } from '../../../auth/src/oauth/oauth-service.ts';
import { OFFLINE_ACCESS } from '../../../auth/src/oauth/resource-indicator.ts';
import { html, layout } from '../html.ts';
import { createWebSessionMiddleware, safeEqual, signedInOf, type SignedIn } from '../web-session.ts';

const SCOPE_TEXT: Record<string, string> = {
  'research:read': 'Read research data',
  'knowledge:read': 'Read your knowledge base',
  'payments:read': 'Read your payment records',
  'payments:propose': 'Propose payments for you to confirm (it cannot move money by itself)',
  'gateway:read': 'List the tools behind the gateway',
  'gateway:invoke': 'Call tools through the gateway',
  [OFFLINE_ACCESS]: 'Stay connected without asking again (refresh tokens, up to 30 days at a time)',
};

/**
 * Where the browser may be sent after the form: the client's redirect URI. CSP `form-action`
 * also governs redirects that follow a form submission, so the page names exactly that origin
 * (or, for a native app's private-use scheme, that scheme) and nothing else.
 */
function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

function setConsentHeaders(res: Response, redirectUri: string | undefined): void {
  const formAction = redirectUri ? `'self' ${formActionSource(redirectUri)}` : "'self'";
  res.set({
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': `default-src 'none'; style-src 'self'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  });
}

function consentPage(signedIn: SignedIn, requestId: string, view: ConsentView): string {
  const { user, csrfToken } = signedIn;
  const resource = view.protectedResource;
  const redirectHost = (() => {
    const url = new URL(view.redirectUri);
    return url.host || url.protocol;
  })();
  const liveBlocked = resource.live && !user.liveConnectorsEnabled;
  return layout(
    { title: 'Connect an app', signedInEmail: user.email, csrfToken },
    html`<section id="consent"><h1>Connect <span id="client-name">${view.clientName}</span>?</h1>
<p><strong>${view.clientName}</strong> wants to use your Gatehouse account as <strong>${user.email}</strong>.</p>
<table><tbody>
<tr><th>Server</th><td id="resource-name">${resource.displayName}${resource.live ? html` <span class="badge live">LIVE</span>` : resource.serviceName.startsWith('payments') ? html` <span class="badge">TEST</span>` : ''}<br><code id="resource">${resource.resource}</code></td></tr>
<tr><th>It will be able to</th><td><ul id="scopes">${view.scopes.map((s) => html`<li data-scope="${s}">${SCOPE_TEXT[s] ?? s} <span class="muted">(${s})</span></li>`)}</ul></td></tr>
<tr><th>After you answer, you go to</th><td><strong id="redirect-host">${redirectHost}</strong><br><span class="muted">${view.redirectUri}</span></td></tr>
<tr><th>Client id</th><td><code>${view.clientId}</code></td></tr>
</tbody></table>
<p class="muted">It acts as a connector: it can read${resource.serviceName.startsWith('payments') ? ' and propose' : ''}, never confirm or move money. You can disconnect it at any time under “Connected apps”.</p>
${liveBlocked ? html`<div class="flash error" role="alert">Live money is off for this account, so this connection will be refused. Turn it on under “Live money” first.</div>` : ''}
<form method="post" action="/oauth/consent"><input type="hidden" name="csrf" value="${csrfToken}"><input type="hidden" name="request" value="${requestId}">
<button type="submit" name="decision" value="approve" id="approve">Approve</button> <button type="submit" name="decision" value="deny" id="deny" class="secondary">Deny</button></form></section>`,
  );
}

function problemPage(signedIn: SignedIn | undefined, text: string): string {
  return layout(
    { title: 'Connect an app', ...(signedIn ? { signedInEmail: signedIn.user.email, csrfToken: signedIn.csrfToken } : {}) },
    html`<section><h1>This request cannot be answered</h1><p>${text}</p><p class="muted">Nothing was authorized. Start the connection again from the app.</p></section>`,
  );
}

/**
 * The consent step of /oauth/authorize (issue 3): sign in first when needed (and come back
 * here), then Approve or Deny. The consent request is single use and expires; the form carries
 * the web session's CSRF token.
 */
export function consentPageRouter(deps: { accountService: AccountService; oauth: OAuthService }): Router {
  const { accountService, oauth } = deps;
  const web = createWebSessionMiddleware({ accountService });
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.get('/oauth/consent', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const id = typeof req.query.request === 'string' ? req.query.request : '';
    try {
      const view = await oauth.describeConsentRequest(id);
      setConsentHeaders(res, view.redirectUri);
      res.type('html').send(consentPage(signedIn, id, view));
    } catch (err) {
      if (!(err instanceof ConsentError)) throw err;
      setConsentHeaders(res, undefined);
      res.status(400).type('html').send(problemPage(signedIn, err.message));
    }
  });

  router.post('/oauth/consent', form, web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    setConsentHeaders(res, undefined);
    // A forged or stale form is refused before the request is touched, so it stays answerable.
    if (typeof body.csrf !== 'string' || !safeEqual(body.csrf, signedIn.csrfToken)) {
      res.status(400).type('html').send(problemPage(signedIn, 'The form expired or did not come from this site.'));
      return;
    }
    if (typeof body.request !== 'string' || (body.decision !== 'approve' && body.decision !== 'deny')) {
      res.status(400).type('html').send(problemPage(signedIn, 'The form is incomplete.'));
      return;
    }
    try {
      res.redirect(303, await oauth.decideConsent(body.request, signedIn.user.id, body.decision === 'approve'));
    } catch (err) {
      if (!(err instanceof ConsentError)) throw err;
      res.status(400).type('html').send(problemPage(signedIn, err.message));
    }
  });

  return router;
}
