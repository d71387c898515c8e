import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { LIVE_CHAIN_ID, TEST_CHAIN_ID, type Config } from '../../../../shared/config.ts';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { html, layout, type SafeHtml } from '../html.ts';
import { createWebSessionMiddleware, signedInOf, type SignedIn } from '../web-session.ts';
import { createPaymentsClient, HOST_OF_CHAIN, type PaymentsHost } from './payments-client.ts';

const READER = /^intent\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/i;
const Ids = z.object({ workspace_id: z.uuid(), intent_id: z.uuid() });

function chainBadge(chainId: string): SafeHtml {
  return chainId === LIVE_CHAIN_ID
    ? html`<span class="badge live" data-chain="151"><strong>LIVE MONEY · chain 151</strong></span>`
    : html`<span class="badge" data-chain="153">TEST chain 153 · no real money</span>`;
}

function money(m: any): string {
  return m && typeof m === 'object' ? `${m.amount} ${m.symbol}` : '';
}

/** What will happen, in words: every value here may be agent-supplied and is escaped by `html`. */
function whatHappens(intent: any): SafeHtml {
  const a = intent.arguments ?? {};
  switch (intent.kind) {
    case 'send':
      return html`Send <strong>${a.amount} ${a.symbol}</strong> to <strong>${a.to_label}</strong> (<code>${a.to_address}</code>). It waits in escrow until they accept.`;
    case 'accept':
      return html`Accept an incoming payment of <strong>${a.amount} ${a.symbol}</strong> (payment <code>${a.payment_id}</code>).`;
    case 'swap_credit_for_cash':
      return html`Swap <strong>${money(a.gives)}</strong> (credit) for <strong>${money(a.receives)}</strong> (cash) with <strong>${a.counterparty_label}</strong> (<code>${a.counterparty_address}</code>). Your credit goes into escrow until they complete.`;
    case 'complete_swap':
      return html`Complete swap <code>${a.swap_id}</code>: pay <strong>${money(a.pays)}</strong> and receive <strong>${money(a.receives)}</strong>.`;
    default:
      return html`${intent.kind}`;
  }
}

function timeLeft(expiresAt: string, now: number): string {
  const ms = Date.parse(expiresAt) - now;
  if (ms <= 0) return 'expired';
  const m = Math.floor(ms / 60000);
  return `${m} min ${Math.floor((ms % 60000) / 1000)} s left`;
}

function detailPage(signedIn: SignedIn, intent: any, now: number, flash?: { kind: 'error' | 'ok'; text: string }): string {
  const { csrfToken } = signedIn;
  const action = `/intents/${intent.workspace_id}/${intent.intent_id}`;
  const open = intent.status === 'proposed' && Date.parse(intent.expires_at) > now;
  const forms = open
    ? html`<form method="post" action="${action}/confirm" class="inline"><input type="hidden" name="csrf" value="${csrfToken}"><input type="hidden" name="chain" value="${intent.chain_id}"><button type="submit" id="confirm">Confirm${intent.chain_id === LIVE_CHAIN_ID ? ' (LIVE money)' : ''}</button></form>
<form method="post" action="${action}/reject" class="inline"><input type="hidden" name="csrf" value="${csrfToken}"><input type="hidden" name="chain" value="${intent.chain_id}"><button type="submit" class="danger" id="reject">Reject</button></form>`
    : html`<p class="muted">This intent is <strong id="intent-status">${intent.status}</strong>; there is nothing to decide.</p>`;
  return layout(
    { title: 'Confirm a payment', active: '/intents', signedInEmail: signedIn.user.email, csrfToken, ...(flash ? { flash } : {}) },
    html`<section><h1>${intent.chain_id === LIVE_CHAIN_ID ? 'LIVE: ' : ''}Review this proposal</h1>
<p>${chainBadge(intent.chain_id)} <span class="badge" id="status-badge">${intent.status}</span></p>
<table><tbody>
<tr><th>What happens</th><td id="what">${whatHappens(intent)}</td></tr>
<tr><th>Kind</th><td>${intent.kind}</td></tr>
<tr><th>From wallet</th><td><code>${intent.arguments?.from_address ?? intent.wallet_id}</code></td></tr>
<tr><th>Title (from the agent)</th><td id="intent-title">${intent.title || '—'}</td></tr>
<tr><th>Rationale (from the agent)</th><td id="intent-rationale">${intent.rationale || '—'}</td></tr>
<tr><th>Proposed by</th><td>${intent.actor?.session_kind ?? ''} session ${intent.actor?.key_id ? `(key ${intent.actor.key_id})` : ''}</td></tr>
<tr><th>Time left</th><td>${open ? timeLeft(intent.expires_at, now) : '—'}</td></tr>
${intent.message_id ? html`<tr><th>Message id</th><td><code>${intent.message_id}</code></td></tr>` : ''}
${intent.failure_reason ? html`<tr><th>Failure</th><td>${intent.failure_reason}</td></tr>` : ''}
</tbody></table>
<p class="muted">The title and rationale were written by an AI agent. Check the amount, asset and recipient above, not the agent's words.</p>
${forms}</section>`,
  );
}

function inboxPage(signedIn: SignedIn, intents: any[], now: number): string {
  const rows = intents.map(
    (i) => html`<tr><td>${chainBadge(i.chain_id)}</td><td><a href="/private?reader=intent/${i.workspace_id}/${i.intent_id}">${i.title || i.kind}</a></td><td>${whatHappens(i)}</td><td>${i.status}</td>
<td>${i.status === 'proposed' ? timeLeft(i.expires_at, now) : (i.settled_at ?? i.decided_at ?? i.created_at).slice(0, 16).replace('T', ' ')}</td></tr>`,
  );
  return layout(
    { title: 'Payment intents', active: '/intents', signedInEmail: signedIn.user.email, csrfToken: signedIn.csrfToken },
    html`<section><h1>Payment intents</h1><p class="muted">Proposals your agents made. Nothing moves until you confirm one here.</p>
${intents.length ? html`<table><thead><tr><th>Chain</th><th>Title</th><th>What</th><th>Status</th><th>When</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">No intents yet.</p>`}</section>`,
  );
}

/** The inbox, the confirm page at seed 001's confirm_url, and the Confirm/Reject form posts. */
export function intentsPageRouter(deps: { config: Config; accountService: AccountService; now?: () => number }): Router {
  const web = createWebSessionMiddleware({ accountService: deps.accountService });
  const callPayments = createPaymentsClient(deps);
  const now = deps.now ?? Date.now;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });
  const nocache = (res: Response) => res.set('Cache-Control', 'no-store').type('html');

  async function loadIntent(userId: string, workspaceId: string, intentId: string): Promise<any | undefined> {
    for (const host of ['payments-test', 'payments-live'] as PaymentsHost[]) {
      const r = await callPayments(userId, host, 'GET', `/internal/intents/${workspaceId}/${intentId}`);
      if (r.status === 200) return r.body;
    }
    return undefined;
  }

  router.get('/intents', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const lists = await Promise.all((['payments-test', 'payments-live'] as PaymentsHost[]).map((h) => callPayments(signedIn.user.id, h, 'GET', '/internal/intents?limit=50')));
    const intents = lists.flatMap((l) => (l.status === 200 ? l.body.intents : [])).sort((a: any, b: any) => (a.created_at < b.created_at ? 1 : -1));
    nocache(res).send(inboxPage(signedIn, intents, now()));
  });

  router.get('/private', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const match = READER.exec(String(req.query.reader ?? ''));
    const ids = match ? Ids.safeParse({ workspace_id: match[1]!.toLowerCase(), intent_id: match[2]!.toLowerCase() }) : undefined;
    const intent = ids?.success ? await loadIntent(signedIn.user.id, ids.data.workspace_id, ids.data.intent_id) : undefined;
    if (!intent) {
      nocache(res).status(404).send(layout({ title: 'Not found', active: '/intents', signedInEmail: signedIn.user.email, csrfToken: signedIn.csrfToken }, html`<section><h1>No such intent</h1><p class="muted">It does not exist or is not yours.</p></section>`));
      return;
    }
    nocache(res).send(detailPage(signedIn, intent, now()));
  });

  const decide = (path: 'confirm' | 'reject') => async (req: Request, res: Response) => {
    const signedIn = signedInOf(req);
    const ids = Ids.safeParse(req.params);
    const chain = z.enum([TEST_CHAIN_ID, LIVE_CHAIN_ID]).safeParse((req.body as Record<string, unknown>)?.chain);
    if (!ids.success || !chain.success) {
      res.status(400).type('text/plain').send('Bad request');
      return;
    }
    const host = HOST_OF_CHAIN[chain.data]!;
    const r = await callPayments(signedIn.user.id, host, 'POST', `/internal/intents/${ids.data.workspace_id}/${ids.data.intent_id}/${path}`);
    const intent = r.status === 200 ? r.body.intent : await loadIntent(signedIn.user.id, ids.data.workspace_id, ids.data.intent_id);
    if (!intent) {
      res.status(404).type('text/plain').send('No such intent');
      return;
    }
    const flash =
      r.status === 200
        ? { kind: 'ok' as const, text: path === 'confirm' ? 'Confirmed. Settlement is under way.' : 'Rejected. Nothing will move.' }
        : { kind: 'error' as const, text: String(r.body?.error ?? 'The decision could not be recorded') };
    nocache(res).status(r.status === 200 ? 200 : r.status).send(detailPage(signedIn, intent, now(), flash));
  };
  router.post('/intents/:workspace_id/:intent_id/confirm', form, web.requireSignedIn, web.requireCsrf, decide('confirm'));
  router.post('/intents/:workspace_id/:intent_id/reject', form, web.requireSignedIn, web.requireCsrf, decide('reject'));
  return router;
}
