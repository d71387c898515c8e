import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText, startKnowledgeHarness, type KnowledgeCaller } from './support/knowledge-harness.ts';

// PGlite start-up plus migrations can exceed vitest's 60 s hook limit on a loaded 2-core machine.
const SETUP_TIMEOUT_MS = 240_000;

interface Seen {
  obo: Array<Record<string, unknown>>;
  intents: Array<{ url: string; authorization: string | undefined }>;
}

/** Stand-ins for auth's /auth/obo and payments' /internal/intents, listening on real ports. */
async function startFakes(intentId: string, workspaceId: string) {
  const seen: Seen = { obo: [], intents: [] };
  const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
  const auth = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.obo.push(JSON.parse(body));
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ access_token: 'obo-token', token_type: 'Bearer' }));
    });
  });
  const payments = createServer((req, res) => {
    seen.intents.push({ url: req.url ?? '', authorization: req.headers.authorization });
    if (req.url === `/internal/intents/${workspaceId}/${intentId}`) {
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ intent_id: intentId, workspace_id: workspaceId, status: 'proposed', kind: 'send' }));
    } else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
  });
  const [authPort, paymentsPort] = [await listen(auth), await listen(payments)];
  return { seen, authPort, paymentsPort, close: async () => Promise.all([auth, payments].map((s) => new Promise((r) => s.close(r)))) };
}

describe('deal_list / deal_get / intent_status (seed 001, "Deals and intents")', () => {
  const intentId = randomUUID();
  const workspaceId = randomUUID();
  let h: Awaited<ReturnType<typeof startKnowledgeHarness>>;
  let fakes: Awaited<ReturnType<typeof startFakes>>;
  let alice: KnowledgeCaller;
  let bob: KnowledgeCaller;
  let dealId: string;

  beforeAll(async () => {
    fakes = await startFakes(intentId, workspaceId);
    h = await startKnowledgeHarness({}, undefined, {
      AUTH_INTERNAL_URL: `http://127.0.0.1:${fakes.authPort}`,
      PUBLIC_URL_PAYMENTS_TEST: `http://127.0.0.1:${fakes.paymentsPort}`,
    });
    alice = await h.caller();
    bob = await h.caller();
    dealId = await h.store.deals.create({ title: 'Acme bridge loan', status: 'open', parties: [{ userId: alice.userId, role: 'lender' }] });
    await h.store.deals.create({ title: 'Other deal', status: 'open', parties: [{ userId: bob.userId, role: 'borrower' }] });
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await h?.close();
    await fakes?.close();
  }, SETUP_TIMEOUT_MS);

  it('deal_list and deal_get show only deals the caller is party to', async () => {
    const list = await alice.json('deal_list', {});
    expect(list.deals.map((d: any) => d.title)).toEqual(['Acme bridge loan']);
    expect(await alice.json('deal_get', { deal_id: dealId })).toMatchObject({ deal_id: dealId, your_role: 'lender' });
  });

  it("another user's deal is not_found, exactly like a deal that does not exist", async () => {
    const foreign = await bob.call('deal_get', { deal_id: dealId });
    const missing = await bob.call('deal_get', { deal_id: randomUUID() });
    for (const r of [foreign, missing]) {
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect(JSON.parse(errorText(r)).error.code).toBe('not_found');
    }
  });

  it('a malformed id is invalid_arguments', async () => {
    const r = await alice.call('deal_get', { deal_id: 'nope' });
    expect(JSON.parse(errorText(r)).error.code).toBe('invalid_arguments');
  });

  it('intent_status mints an on-behalf-of token and reads payments over HTTP with it', async () => {
    const out = await alice.json('intent_status', { intent_id: intentId, workspace_id: workspaceId });
    expect(out).toMatchObject({ intent_id: intentId, status: 'proposed' });
    expect(fakes.seen.obo.at(-1)).toEqual({ subject_token: `session-token-of-${alice.userId}`, audience: `http://127.0.0.1:${fakes.paymentsPort}/mcp` });
    expect(fakes.seen.intents.at(-1)).toEqual({ url: `/internal/intents/${workspaceId}/${intentId}`, authorization: 'Bearer obo-token' });
  });

  it('a payments 404 is not_found', async () => {
    const r = await alice.call('intent_status', { intent_id: randomUUID(), workspace_id: workspaceId });
    expect(JSON.parse(errorText(r)).error.code).toBe('not_found');
  });

  it('an unreachable payments service is downstream_failed', async () => {
    const h2 = await startKnowledgeHarness({ KNOWLEDGE_DOWNSTREAM_TIMEOUT_MS: '500' }, undefined, {
      AUTH_INTERNAL_URL: `http://127.0.0.1:${fakes.authPort}`,
      PUBLIC_URL_PAYMENTS_TEST: 'http://127.0.0.1:9', // discard port: nothing listens
    });
    try {
      const carol = await h2.caller();
      const r = await carol.call('intent_status', { intent_id: intentId, workspace_id: workspaceId });
      expect(r.isError).toBe(true);
      expect(JSON.parse(errorText(r)).error.code).toBe('downstream_failed');
    } finally {
      await h2.close();
    }
  }, SETUP_TIMEOUT_MS);
});
