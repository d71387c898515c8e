import express, { type Router } from 'express';
import { z } from 'zod';
import { LIVE_CHAIN_ID, TEST_CHAIN_ID } from '../../../../shared/config.ts';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { AccountError } from '../../../auth/src/domain/account-errors.ts';
import type { ApiKeyRecord } from '../../../auth/src/store/api-key-store.ts';
import { html, layout, type SafeHtml } from '../html.ts';
import { createWebSessionMiddleware, signedInOf, type SignedIn } from '../web-session.ts';

const CreateKeyForm = z.object({
  service_name: z.string().trim().min(1, 'Give the key a name').max(100, 'The name is too long'),
  kind: z.enum(['personal', 'connector']),
  chains: z.union([z.enum([TEST_CHAIN_ID, LIVE_CHAIN_ID]), z.array(z.enum([TEST_CHAIN_ID, LIVE_CHAIN_ID]))]).optional(),
});

function chainLabel(chain: string): SafeHtml {
  return chain === LIVE_CHAIN_ID ? html`<span class="badge live">LIVE 151</span>` : html`<span class="badge">TEST 153</span>`;
}

function keysPage(signedIn: SignedIn, keys: ApiKeyRecord[], extra: { created?: { apiKey: string; record: ApiKeyRecord }; error?: string }): string {
  const { user, csrfToken } = signedIn;
  const rows = keys.map(
    (k) => html`<tr data-key-id="${k.id}"><td>${k.serviceName}</td><td>${k.kind}</td><td>${k.allowedChains.map(chainLabel)}</td>
<td><code>${k.displayPrefix}</code></td><td>${k.createdAt.toISOString().slice(0, 16).replace('T', ' ')}</td>
<td>${k.revokedAt ? html`<span class="badge revoked">revoked</span>` : html`<form method="post" action="/keys/${k.id}/revoke" class="inline"><input type="hidden" name="csrf" value="${csrfToken}"><button class="danger" type="submit">Revoke</button></form>`}</td></tr>`,
  );
  const created = extra.created
    ? html`<section id="new-key"><h2>Your new ${extra.created.record.kind} key “${extra.created.record.serviceName}”</h2>
<p>Copy it now: it is shown <strong>once</strong> and stored only as a hash.</p><code class="secret" id="new-api-key">${extra.created.apiKey}</code></section>`
    : '';
  return layout(
    { title: 'API keys', active: '/keys', signedInEmail: user.email, csrfToken, ...(extra.error ? { flash: { kind: 'error' as const, text: extra.error } } : {}) },
    html`${created}<section><h1>API keys</h1>
<p class="muted">A <strong>connector</strong> key lets an AI client (Claude Code, any MCP client) read and propose through the MCP servers. A <strong>personal</strong> key is for your own scripts against the auth API; MCP servers refuse it.</p>
<form method="post" action="/keys"><input type="hidden" name="csrf" value="${csrfToken}">
<label for="service_name">Name</label><input id="service_name" name="service_name" type="text" required maxlength="100" placeholder="claude-code">
<fieldset><legend class="muted">Kind</legend><label><input type="radio" name="kind" value="connector" checked> Connector</label><label><input type="radio" name="kind" value="personal"> Personal</label></fieldset>
<fieldset><legend class="muted">Chains</legend><label><input type="checkbox" name="chains" value="${TEST_CHAIN_ID}" checked> Test (153)</label><label><input type="checkbox" name="chains" value="${LIVE_CHAIN_ID}"${user.liveConnectorsEnabled ? '' : ' disabled'}> Live (151)${user.liveConnectorsEnabled ? '' : ' — enable live money first'}</label></fieldset>
<p><button type="submit">Create key</button></p></form></section>
<section><h2>Your keys</h2>${keys.length ? html`<table><thead><tr><th>Name</th><th>Kind</th><th>Chains</th><th>Key</th><th>Created (UTC)</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">No keys yet.</p>`}</section>`,
  );
}

export function keysPageRouter(deps: { accountService: AccountService }): Router {
  const { accountService } = deps;
  const web = createWebSessionMiddleware({ accountService });
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.get('/keys', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    res.type('html').send(keysPage(signedIn, await accountService.listApiKeys(signedIn.user.id), {}));
  });

  router.post('/keys', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const parsed = CreateKeyForm.safeParse(req.body);
    const render = async (status: number, extra: Parameters<typeof keysPage>[2]) =>
      res.status(status).set('Cache-Control', 'no-store').type('html').send(keysPage(signedIn, await accountService.listApiKeys(signedIn.user.id), extra));
    if (!parsed.success) return render(400, { error: parsed.error.issues.map((i) => i.message).join('; ') });
    const chains = parsed.data.chains === undefined ? undefined : [parsed.data.chains].flat();
    try {
      const created = await accountService.createApiKey(signedIn.user, {
        serviceName: parsed.data.service_name,
        kind: parsed.data.kind,
        ...(chains?.length ? { allowedChains: chains } : {}),
      });
      return render(201, { created });
    } catch (err) {
      if (err instanceof AccountError) return render(403, { error: err.message });
      throw err;
    }
  });

  router.post('/keys/:id/revoke', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const id = z.uuid().safeParse(req.params.id);
    if (id.success) await accountService.revokeApiKey(signedIn.user.id, id.data).catch((err) => {
      if (!(err instanceof AccountError)) throw err;
    });
    res.redirect(303, '/keys');
  });

  return router;
}
