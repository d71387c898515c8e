import express, { type Router } from 'express';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { AccountError } from '../../../auth/src/domain/account-errors.ts';
import { html, layout } from '../html.ts';
import { createWebSessionMiddleware, signedInOf, type SignedIn } from '../web-session.ts';

async function livePage(accountService: AccountService, signedIn: SignedIn, flash?: { kind: 'error' | 'ok'; text: string }): Promise<string> {
  const state = await accountService.getLiveConnectors(signedIn.user.id);
  const meetsFloor = state.verification_level === state.required_verification_level;
  return layout(
    { title: 'Live money', active: '/live-money', signedInEmail: signedIn.user.email, csrfToken: signedIn.csrfToken, ...(flash ? { flash } : {}) },
    html`<section><h1>Live money</h1>
<p>Live connectors are <strong id="live-state">${state.enabled ? 'ON' : 'OFF'}</strong>. While off, no connector credential of yours can be created for, exchanged on or refreshed onto the live chain (151). Agents can still only <em>propose</em>; you confirm every movement here.</p>
<p>Your verification level: <strong>${state.verification_level}</strong>. Required to turn live money on: <strong>${state.required_verification_level}</strong>.${meetsFloor ? '' : ' You cannot turn it on until your account is verified.'} Turning it off never needs verification.</p>
<form method="post" action="/live-money"><input type="hidden" name="csrf" value="${signedIn.csrfToken}">
<input type="hidden" name="enabled" value="${state.enabled ? 'false' : 'true'}">
<button type="submit" class="${state.enabled ? 'danger' : ''}">${state.enabled ? 'Turn live money off' : 'Turn live money on'}</button></form></section>`,
  );
}

export function liveMoneyPageRouter(deps: { accountService: AccountService }): Router {
  const { accountService } = deps;
  const web = createWebSessionMiddleware({ accountService });
  const router = express.Router();
  router.get('/live-money', web.requireSignedIn, async (req, res) => {
    res.type('html').send(await livePage(accountService, signedInOf(req)));
  });
  router.post('/live-money', express.urlencoded({ extended: false, limit: '4kb' }), web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const enabled = (req.body as Record<string, string>).enabled === 'true';
    try {
      await accountService.setLiveConnectors(signedIn.user.id, enabled);
      res.type('html').send(await livePage(accountService, signedIn, { kind: 'ok', text: enabled ? 'Live money is on.' : 'Live money is off.' }));
    } catch (err) {
      if (!(err instanceof AccountError)) throw err;
      res.status(403).type('html').send(await livePage(accountService, signedIn, { kind: 'error', text: err.message }));
    }
  });
  return router;
}
