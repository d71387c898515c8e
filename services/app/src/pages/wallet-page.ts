import express, { type Router } from 'express';
import { z } from 'zod';
import { LIVE_CHAIN_ID, TEST_CHAIN_ID, type Config } from '../../../../shared/config.ts';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { html, layout } from '../html.ts';
import { createWebSessionMiddleware, signedInOf, type SignedIn } from '../web-session.ts';
import { createPaymentsClient, HOST_OF_CHAIN, type PaymentsHost } from './payments-client.ts';

function walletPage(signedIn: SignedIn, chains: Array<{ chainId: string; wallet: any; available: boolean }>, flash?: { kind: 'error' | 'ok'; text: string }): string {
  const { csrfToken } = signedIn;
  const sections = chains.map(({ chainId, wallet, available }) => {
    const live = chainId === LIVE_CHAIN_ID;
    const title = live ? html`<h2><span class="badge live">LIVE 151</span> Live wallet</h2>` : html`<h2><span class="badge">TEST 153</span> Test wallet</h2>`;
    if (!available) return html`<section>${title}<p class="muted">The payments service for this chain is unavailable.</p></section>`;
    if (!wallet)
      return html`<section>${title}<p class="muted">No chain account yet. Agents get CHAIN_ACCOUNT_REQUIRED until you activate one.</p>
<form method="post" action="/wallet/activate"><input type="hidden" name="csrf" value="${csrfToken}"><input type="hidden" name="chain" value="${chainId}"><button type="submit">Activate ${live ? 'live' : 'test'} chain account</button></form></section>`;
    const rows = wallet.balances.map((b: any) => html`<tr><td>${b.symbol}</td><td>${b.kind}</td><td>${b.amount}</td></tr>`);
    return html`<section>${title}<p>Address <code>${wallet.address}</code></p>
${wallet.balances.length ? html`<table><thead><tr><th>Asset</th><th>Kind</th><th>Balance</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">No balances.</p>`}
${live ? '' : html`<form method="post" action="/wallet/fund"><input type="hidden" name="csrf" value="${csrfToken}"><label for="amount">Test faucet</label>
<input id="amount" name="amount" type="text" value="1000" maxlength="20"> <select name="asset"><option>USDC</option><option>EURC</option><option>TCN30</option></select> <button type="submit" class="secondary">Fund (test only)</button></form>`}</section>`;
  });
  return layout({ title: 'Wallet', active: '/wallet', signedInEmail: signedIn.user.email, csrfToken, ...(flash ? { flash } : {}) }, html`<h1>Wallet</h1>${sections}`);
}

/** Balances per chain, explicit chain-account activation, and the test-chain faucet. */
export function walletPageRouter(deps: { config: Config; accountService: AccountService }): Router {
  const web = createWebSessionMiddleware({ accountService: deps.accountService });
  const callPayments = createPaymentsClient(deps);
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });

  async function render(signedIn: SignedIn, flash?: { kind: 'error' | 'ok'; text: string }) {
    const chains = await Promise.all(
      ([TEST_CHAIN_ID, LIVE_CHAIN_ID] as const).map(async (chainId) => {
        const r = await callPayments(signedIn.user.id, HOST_OF_CHAIN[chainId] as PaymentsHost, 'GET', '/internal/wallet');
        return { chainId, wallet: r.status === 200 ? r.body.wallet : null, available: r.status === 200 };
      }),
    );
    return walletPage(signedIn, chains, flash);
  }

  router.get('/wallet', web.requireSignedIn, async (req, res) => {
    res.set('Cache-Control', 'no-store').type('html').send(await render(signedInOf(req)));
  });

  router.post('/wallet/activate', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const chain = z.enum([TEST_CHAIN_ID, LIVE_CHAIN_ID]).safeParse((req.body as Record<string, unknown>).chain);
    if (!chain.success) return void res.status(400).type('text/plain').send('Bad request');
    const r = await callPayments(signedIn.user.id, HOST_OF_CHAIN[chain.data]!, 'POST', `/internal/entities/user/${signedIn.user.id}/chain-accounts/activation`, { display_name: signedIn.user.email });
    const flash = r.status < 300 ? { kind: 'ok' as const, text: `Chain account on ${chain.data} is ready.` } : { kind: 'error' as const, text: String(r.body?.error ?? 'Activation failed') };
    res.status(r.status < 300 ? 200 : r.status).set('Cache-Control', 'no-store').type('html').send(await render(signedIn, flash));
  });

  router.post('/wallet/fund', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const body = z.object({ asset: z.string().min(1).max(20), amount: z.string().min(1).max(30) }).safeParse(req.body);
    if (!body.success) return void res.status(400).type('text/plain').send('Bad request');
    const r = await callPayments(signedIn.user.id, 'payments-test', 'POST', '/internal/wallet/fund', body.data);
    const flash = r.status === 200 ? { kind: 'ok' as const, text: `Funded ${r.body.funded} ${r.body.symbol}.` } : { kind: 'error' as const, text: String(r.body?.error ?? 'Funding failed') };
    res.status(r.status === 200 ? 200 : r.status).set('Cache-Control', 'no-store').type('html').send(await render(signedIn, flash));
  });
  return router;
}
