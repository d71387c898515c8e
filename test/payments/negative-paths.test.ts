import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { addContact, count, internal, oboFor, parse, person, startPaymentsStack, type Person } from './payments-fixture.ts';
import { createPaymentsService } from '../../services/payments/src/app.ts';
import { openDb } from '../../shared/db/client.ts';
import { createLogger } from '../../shared/log.ts';
import { insertContact } from '../../services/payments/src/store/contact-store.ts';
import { createGroup } from '../../services/payments/src/store/directory-store.ts';
import { fileIntent } from '../../services/payments/src/store/intent-store.ts';

let stack: Awaited<ReturnType<typeof startPaymentsStack>>;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  stack = await startPaymentsStack();
  alice = await person(stack, 'alice@example.com', { fund: { USDC: '100' } });
  bob = await person(stack, 'bob@example.com');
  await addContact(stack, alice, bob);
}, 180_000);
afterAll(async () => stack?.close());

async function rpc(url: string, bearer: string, name: string, args: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const toolDoc = (r: { body: any }) => JSON.parse(r.body.result.content[0].text);

describe('payments failures (seed 001 "Results and failures")', () => {
  it('a session bound to another chain gets CHAIN_MODE_MISMATCH on every call, and nothing is filed', async () => {
    const token = await stack.auth.accountService.mintOboToken({ userId: alice.id, audience: stack.config.services['payments-live'].resource, subjectKind: 'connector', chainId: '153', actor: 'test' });
    const before = await count(stack, 'pay_intents');
    for (const [name, args] of [['whoami', {}], ['propose_send', { asset: 'USDC', amount: '1', to: bob.email }], ['list_assets', { limit: 999 }]] as const) {
      const r = await rpc(stack.url('payments-live'), token.access_token, name, args);
      expect(r.status).toBe(200);
      expect(r.body.result.isError).toBe(true);
      expect(r.body.result.structuredContent).toBeUndefined();
      expect(toolDoc(r).error.code).toBe('CHAIN_MODE_MISMATCH');
    }
    expect(await count(stack, 'pay_intents')).toBe(before);
  });

  it('a walletless person gets CHAIN_ACCOUNT_REQUIRED naming entity and chain; no account is created', async () => {
    const carol = await person(stack, 'carol@example.com', { wallet: false });
    const r = await rpc(stack.url('payments-test'), carol.key, 'propose_send', { asset: 'USDC', amount: '1', to: bob.address });
    const doc = toolDoc(r);
    expect(r.body.result.isError).toBe(true);
    expect(doc.error).toMatchObject({ code: 'CHAIN_ACCOUNT_REQUIRED', entity: { kind: 'user', id: carol.id }, chain_id: '153' });
    expect(await count(stack, 'pay_wallets', sql`entity_id = ${carol.id}::uuid`)).toBe(0);
    expect(await count(stack, 'pay_intents', sql`actor_user_id = ${carol.id}::uuid`)).toBe(0);
  });

  it('the same request_id with other arguments is intent_conflict; a foreign working group is intent_refused', async () => {
    const url = stack.url('payments-test');
    const first = toolDoc(await rpc(url, alice.key, 'propose_send', { asset: 'USDC', amount: '2', to: bob.email, request_id: 'r-1' }));
    expect(first.created).toBe(true);
    const conflict = await rpc(url, alice.key, 'propose_send', { asset: 'USDC', amount: '3', to: bob.email, request_id: 'r-1' });
    expect(toolDoc(conflict).error.code).toBe('intent_conflict');
    const group = await createGroup(stack.db.db, { name: 'Bob Ltd', ownerUserId: bob.id });
    const before = await count(stack, 'pay_intents');
    const refused = await rpc(url, alice.key, 'propose_send', { asset: 'USDC', amount: '3', to: bob.address, working_group_id: group });
    expect(toolDoc(refused).error.code).toBe('intent_refused');
    expect(await count(stack, 'pay_intents')).toBe(before);
  });

  it('the seven direct writes are unknown tools: JSON-RPC -32602', async () => {
    for (const name of ['send_instant_payment', 'accept_payment', 'swap_credit_for_cash', 'complete_swap', 'create_connection_request', 'accept_connection', 'send_invitation']) {
      const r = await rpc(stack.url('payments-test'), alice.key, name, {});
      expect(r.status).toBe(200);
      expect(r.body.error.code).toBe(-32602);
      expect(r.body.result).toBeUndefined();
    }
  });

  it('amounts are decimal strings; a float is invalid_params', async () => {
    const r = await rpc(stack.url('payments-test'), alice.key, 'propose_send', { asset: 'USDC', amount: 1.5, to: bob.email });
    expect(toolDoc(r).error.code).toBe('invalid_params');
    const precise = await rpc(stack.url('payments-test'), alice.key, 'propose_send', { asset: 'USDC', amount: '1.0000001', to: bob.email });
    expect(toolDoc(precise).error.code).toBe('invalid_params');
  });

  it('pages with limit ≤ 100, cursor and next_cursor; a foreign cursor is invalid_params', async () => {
    const dave = await person(stack, 'dave@example.com');
    for (let i = 0; i < 25; i++) await insertContact(stack.db.db, { workspaceId: dave.id, name: `c${i}`, email: `c${i}@example.com` });
    const url = stack.url('payments-test');
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const doc = toolDoc(await rpc(url, dave.key, 'list_contacts', { limit: 10, ...(cursor ? { cursor } : {}) }));
      doc.contacts.forEach((c: any) => seen.add(c.contact_id));
      cursor = doc.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen.size).toBe(25);
    const assets = toolDoc(await rpc(url, dave.key, 'list_assets', { limit: 1 }));
    const foreign = await rpc(url, dave.key, 'list_contacts', { cursor: assets.next_cursor });
    expect(toolDoc(foreign).error.code).toBe('invalid_params');
    const tooMany = await rpc(url, dave.key, 'list_contacts', { limit: 101 });
    expect(toolDoc(tooMany).error.code).toBe('invalid_params');
  });

  it('a page over 256 KiB is trimmed to fit and resumes with next_cursor', async () => {
    const erin = await person(stack, 'erin@example.com');
    const notes = 'x'.repeat(4000);
    for (let i = 0; i < 100; i++) await insertContact(stack.db.db, { workspaceId: erin.id, name: `n${i}`, notes });
    const r = await fetch(stack.url('payments-test'), {
      method: 'POST',
      headers: { authorization: `Bearer ${erin.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_contacts', arguments: { limit: 100 } } }),
    });
    const text = await r.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(256 * 1024);
    const doc = JSON.parse(JSON.parse(text).result.content[0].text);
    expect(doc.truncated).toBe(true);
    expect(doc.contacts.length).toBeLessThan(100);
    let total = doc.contacts.length;
    let cursor = doc.next_cursor;
    while (cursor) {
      const next = toolDoc(await rpc(stack.url('payments-test'), erin.key, 'list_contacts', { limit: 100, cursor }));
      total += next.contacts.length;
      cursor = next.next_cursor;
    }
    expect(total).toBe(100);
  });
});

describe('confirmation is personal only (seed 001 step 2)', () => {
  async function propose(amount: string) {
    return toolDoc(await rpc(stack.url('payments-test'), alice.key, 'propose_send', { asset: 'USDC', amount, to: bob.email }));
  }

  it('a connector-derived OBO and a connector key get 403 connector_read_only; nothing changes', async () => {
    const p = await propose('4');
    const viaObo = await internal(stack, await oboFor(stack, alice.id, 'connector'), 'POST', `/internal/intents/${p.workspace_id}/${p.intent_id}/confirm`);
    expect(viaObo.status).toBe(403);
    expect(viaObo.body.code).toBe('connector_read_only');
    const viaKey = await fetch(`${stack.config.services['payments-test'].publicUrl}/api/intents/${p.workspace_id}/${p.intent_id}/confirm`, { method: 'POST', headers: { authorization: `Bearer ${alice.key}` } });
    expect(viaKey.status).toBe(403);
    expect(((await viaKey.json()) as any).code).toBe('connector_read_only');
    const [row] = await stack.db.rows<{ status: string; message_id: string | null }>(sql`select status, message_id from pay_intents where id = ${p.intent_id}::uuid`);
    expect(row).toEqual({ status: 'proposed', message_id: null });
    // The person, signed in, may: POST /api/intents/... with a login token.
    const login = await stack.login(alice.email);
    const ok = await fetch(`${stack.config.services['payments-test'].publicUrl}/api/intents/${p.workspace_id}/${p.intent_id}/confirm`, { method: 'POST', headers: { authorization: `Bearer ${login}` } });
    expect(ok.status).toBe(200);
  });

  it('two concurrent confirms: one approval, the other 409; exactly one audit row', async () => {
    const p = await propose('5');
    const token = await oboFor(stack, alice.id, 'personal');
    const path = `/internal/intents/${p.workspace_id}/${p.intent_id}/confirm`;
    const answers = await Promise.all([internal(stack, token, 'POST', path), internal(stack, token, 'POST', path)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('intent_already_decided');
    expect(await count(stack, 'pay_intent_events', sql`intent_id = ${p.intent_id}::uuid and to_status = 'approved'`)).toBe(1);
  });

  it('confirm after expiry is 409 and the intent becomes expired', async () => {
    const wallet = (await stack.db.rows<{ id: string }>(sql`select id from pay_wallets where entity_id = ${alice.id}::uuid`))[0]!;
    const past = new Date(Date.now() - 1000);
    const filed = await fileIntent(
      stack.db.db,
      { workspaceId: alice.id, chainId: '153', kind: 'send', actorUserId: alice.id, actor: {}, walletId: wallet.id, arguments: {}, requestId: 'expired', identityHash: 'sha256:expired', title: '', rationale: '', expiresAt: past },
      new Date(past.getTime() - 1000),
    );
    const r = await internal(stack, await oboFor(stack, alice.id, 'personal'), 'POST', `/internal/intents/${alice.id}/${filed.intent.id}/confirm`);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('intent_expired');
    const [row] = await stack.db.rows<{ status: string }>(sql`select status from pay_intents where id = ${filed.intent.id}::uuid`);
    expect(row!.status).toBe('expired');
  });

  it('the knowledge read route: 200 for a party, 404 for anyone else', async () => {
    const p = await propose('6');
    const mine = await internal(stack, await oboFor(stack, alice.id, 'connector'), 'GET', `/internal/intents/${p.workspace_id}/${p.intent_id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.intent_id).toBe(p.intent_id);
    const theirs = await internal(stack, await oboFor(stack, bob.id, 'connector'), 'GET', `/internal/intents/${p.workspace_id}/${p.intent_id}`);
    expect(theirs.status).toBe(404);
  });
});

describe('ledger invariants are the database’s', () => {
  it('a negative wallet balance is refused by the CHECK constraint', async () => {
    await expect(stack.db.rows(sql`update pay_accounts set balance = -1 where kind = 'wallet'`)).rejects.toThrow();
    const [neg] = await stack.db.rows<{ n: number }>(sql`select count(*)::int as n from pay_accounts where kind <> 'faucet' and balance < 0`);
    expect(Number(neg!.n)).toBe(0);
  });

  it('the audit trail is append-only', async () => {
    await expect(stack.db.rows(sql`delete from pay_intent_events`)).rejects.toThrow();
    await expect(stack.db.rows(sql`update pay_intents set status = 'completed' where status = 'proposed'`)).rejects.toThrow();
  });
});

describe('duplicate proposals under concurrency (DESIGN §5)', () => {
  it('100 concurrent identical propose_send across two server instances → one intent, one created:true', async () => {
    // A second payments-test server on its own port and (on Postgres) its own connection pool.
    const second = stack.db.kind === 'postgres' ? await openDb(stack.db.config) : stack.db;
    const config = { ...stack.config, extraAllowedHosts: ['127.0.0.1'] };
    const service = await createPaymentsService({ config, db: second, logger: createLogger('silent') }, 'test');
    const server = service.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as AddressInfo).port;
    const urls = [stack.url('payments-test'), `http://127.0.0.1:${port}/mcp`];
    const args = { asset: 'USDC', amount: '7.77', to: bob.email, request_id: 'dup-race' };
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => rpc(urls[i % 2]!, alice.key, 'propose_send', args)));
    const docs = answers.map(toolDoc);
    expect(docs.every((d) => !d.error)).toBe(true);
    expect(new Set(docs.map((d) => d.intent_id)).size).toBe(1);
    expect(docs.filter((d) => d.created).length).toBe(1);
    expect(await count(stack, 'pay_intents', sql`request_id = 'dup-race'`)).toBe(1);
    expect(await count(stack, 'pay_intent_events', sql`intent_id = ${docs[0].intent_id}::uuid`)).toBe(1);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await service.close();
    if (second !== stack.db) await second.close();
  });
});
