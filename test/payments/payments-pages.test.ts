import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertContact } from '../../services/payments/src/store/contact-store.ts';
import { count, person, startPaymentsStack, type Person } from './payments-fixture.ts';

/**
 * The web app's payments pages over plain HTTP (seed 001 "Confirmation, by a person, in the web
 * app"): the inbox `/intents`, the confirm page at `confirm_url`, its Confirm/Reject form posts,
 * and `/wallet`. Forms need the session's CSRF token; agent-supplied strings come back escaped.
 */
let stack: Awaited<ReturnType<typeof startPaymentsStack>>;
let alice: Person;
let bob: Person;
let aliceWeb: WebSession;
let bobWeb: WebSession;

const HOSTILE = '<script>window.pwned=1</script><img src=x onerror=alert(1)>"\'&';
const ESCAPED = '&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;';

interface WebSession {
  readonly cookie: string;
  readonly csrf: string;
}

async function webSession(userId: string): Promise<WebSession> {
  const { id, csrfToken } = await stack.auth.accountService.createWebSession(userId);
  return { cookie: `gh_session=${id}`, csrf: csrfToken };
}

async function get(path: string, session?: WebSession) {
  const res = await fetch(`${stack.url('auth')}${path}`, { headers: session ? { cookie: session.cookie } : {}, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function postForm(path: string, session: WebSession, form: Record<string, string>) {
  const res = await fetch(`${stack.url('auth')}${path}`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text() };
}

async function propose(args: Record<string, unknown>): Promise<{ intent_id: string; workspace_id: string; confirm_url: string }> {
  const client = await stack.mcpClient('payments-test', alice.key);
  try {
    const r = await client.callTool({ name: 'propose_send', arguments: args });
    expect(r.isError).toBeFalsy();
    return r.structuredContent as { intent_id: string; workspace_id: string; confirm_url: string };
  } finally {
    await client.close();
  }
}

const statusOf = async (intentId: string) =>
  (await stack.db.rows<{ status: string; decided_at: Date | null }>(sql`select status, decided_at from pay_intents where id = ${intentId}::uuid`))[0]!;
const eventsOf = (intentId: string) => count(stack, 'pay_intent_events', sql`intent_id = ${intentId}::uuid`);

beforeAll(async () => {
  stack = await startPaymentsStack();
  alice = await person(stack, 'alice@example.com', { fund: { USDC: '100' } });
  bob = await person(stack, 'bob@example.com');
  // A contact whose name is hostile: it is shown as the recipient label on every page.
  await insertContact(stack.db.db, { workspaceId: alice.id, name: HOSTILE, email: bob.email, walletAddress: bob.address });
  aliceWeb = await webSession(alice.id);
  bobWeb = await webSession(bob.id);
}, 180_000);
afterAll(async () => stack?.close());

describe('GET /intents and GET /private?reader=intent/… (escaping)', () => {
  it('signed out, both pages send you to sign in and back', async () => {
    for (const path of ['/intents', '/wallet', `/private?reader=intent/${alice.id}/${alice.id}`]) {
      const r = await get(path);
      expect(r.status, path).toBe(303);
      expect(r.headers.get('location'), path).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });

  it('agent-supplied title, rationale and recipient label are escaped on the inbox and the confirm page', async () => {
    const p = await propose({ asset: 'USDC', amount: '3', to: bob.email, title: HOSTILE, rationale: `why: ${HOSTILE}` });
    const inbox = await get('/intents', aliceWeb);
    expect(inbox.status).toBe(200);
    expect(inbox.headers.get('cache-control')).toBe('no-store');
    expect(inbox.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(inbox.text).toContain(ESCAPED);
    expect(inbox.text).not.toContain('<script>window.pwned');
    expect(inbox.text).not.toContain('<img src=x');
    expect(inbox.text).toContain(`href="/private?reader=intent/${p.workspace_id}/${p.intent_id}"`);

    const page = await get(new URL(p.confirm_url).pathname + new URL(p.confirm_url).search, aliceWeb);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<td id="intent-title">${ESCAPED}</td>`);
    expect(page.text).toContain(`<td id="intent-rationale">why: ${ESCAPED}</td>`);
    expect(page.text).not.toContain('<script>window.pwned');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('TEST chain 153');
    expect(page.text).toMatch(/<form method="post" action="\/intents\/[0-9a-f-]+\/[0-9a-f-]+\/confirm" class="inline"><input type="hidden" name="csrf" value="[^"]+">/);
  });

  it("another person neither sees the intent in the inbox nor opens it (404)", async () => {
    const p = await propose({ asset: 'USDC', amount: '4', to: bob.email, title: 'Private to alice' });
    const inbox = await get('/intents', bobWeb);
    expect(inbox.status).toBe(200);
    expect(inbox.text).not.toContain(p.intent_id);
    const page = await get(`/private?reader=intent/${p.workspace_id}/${p.intent_id}`, bobWeb);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('Private to alice');
  });

  it('a malformed reader is 404', async () => {
    for (const reader of ['intent/x/y', `intent/${alice.id}`, '../../etc/passwd', `intent/${alice.id}/${alice.id}/extra`]) {
      expect((await get(`/private?reader=${encodeURIComponent(reader)}`, aliceWeb)).status, reader).toBe(404);
    }
  });
});

describe('POST /intents/{ws}/{id}/confirm|reject (CSRF, personal session only)', () => {
  it.each([
    ['confirm', 'no csrf field', undefined],
    ['confirm', 'an empty csrf field', ''],
    ['confirm', 'a forged csrf value', 'forged-token-value-0123456789abcdef'],
    ['confirm', "another person's csrf token", 'BOB'],
    ['reject', 'no csrf field', undefined],
    ['reject', "another person's csrf token", 'BOB'],
  ] as const)('%s with %s is 403 and decides nothing', async (action, _label, csrf) => {
    const p = await propose({ asset: 'USDC', amount: '5', to: bob.email, request_id: `csrf-${action}-${_label}` });
    const events = await eventsOf(p.intent_id);
    const form: Record<string, string> = { chain: '153' };
    if (csrf !== undefined) form.csrf = csrf === 'BOB' ? bobWeb.csrf : csrf;
    const r = await postForm(`/intents/${p.workspace_id}/${p.intent_id}/${action}`, aliceWeb, form);
    expect(r.status).toBe(403);
    expect(r.text).toContain('Forbidden');
    expect(await statusOf(p.intent_id)).toEqual({ status: 'proposed', decided_at: null });
    expect(await eventsOf(p.intent_id)).toBe(events);
  });

  it('signed out, a form post is sent to sign in and decides nothing', async () => {
    const p = await propose({ asset: 'USDC', amount: '6', to: bob.email });
    const res = await fetch(`${stack.url('auth')}/intents/${p.workspace_id}/${p.intent_id}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: aliceWeb.csrf, chain: '153' }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/login\?next=/);
    expect((await statusOf(p.intent_id)).status).toBe('proposed');
  });

  it("another person with their own valid session and token cannot decide it (404)", async () => {
    const p = await propose({ asset: 'USDC', amount: '7', to: bob.email });
    const r = await postForm(`/intents/${p.workspace_id}/${p.intent_id}/confirm`, bobWeb, { csrf: bobWeb.csrf, chain: '153' });
    expect(r.status).toBe(404);
    expect(await statusOf(p.intent_id)).toEqual({ status: 'proposed', decided_at: null });
  });

  it('with the session token, confirm approves once; a second confirm is 409', async () => {
    const p = await propose({ asset: 'USDC', amount: '8', to: bob.email, title: HOSTILE });
    const ok = await postForm(`/intents/${p.workspace_id}/${p.intent_id}/confirm`, aliceWeb, { csrf: aliceWeb.csrf, chain: '153' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Confirmed');
    expect(ok.text).toContain(ESCAPED);
    expect(ok.text).not.toContain('<script>window.pwned');
    expect((await statusOf(p.intent_id)).status).toBe('approved');
    const again = await postForm(`/intents/${p.workspace_id}/${p.intent_id}/confirm`, aliceWeb, { csrf: aliceWeb.csrf, chain: '153' });
    expect(again.status).toBe(409);
    expect((await statusOf(p.intent_id)).status).toBe('approved');
    expect(await count(stack, 'pay_intent_events', sql`intent_id = ${p.intent_id}::uuid and to_status = 'approved'`)).toBe(1);
  });

  it('with the session token, reject cancels', async () => {
    const p = await propose({ asset: 'USDC', amount: '9', to: bob.email });
    const r = await postForm(`/intents/${p.workspace_id}/${p.intent_id}/reject`, aliceWeb, { csrf: aliceWeb.csrf, chain: '153' });
    expect(r.status).toBe(200);
    expect(r.text).toContain('Rejected');
    expect((await statusOf(p.intent_id)).status).toBe('cancelled');
  });

  it('a chain that is not 153/151 is 400 and decides nothing', async () => {
    const p = await propose({ asset: 'USDC', amount: '10', to: bob.email });
    const r = await postForm(`/intents/${p.workspace_id}/${p.intent_id}/confirm`, aliceWeb, { csrf: aliceWeb.csrf, chain: '1' });
    expect(r.status).toBe(400);
    expect((await statusOf(p.intent_id)).status).toBe('proposed');
  });
});

describe('GET /wallet, POST /wallet/activate|fund (CSRF)', () => {
  it('activation needs the CSRF token; without it nothing is created, with it the account exists', async () => {
    const carol = await person(stack, 'carol@example.com', { wallet: false });
    const web = await webSession(carol.id);
    const page = await get('/wallet', web);
    expect(page.status).toBe(200);
    expect(page.text).toContain('No chain account yet');

    for (const csrf of [undefined, '', bobWeb.csrf]) {
      const r = await postForm('/wallet/activate', web, { chain: '153', ...(csrf !== undefined ? { csrf } : {}) });
      expect(r.status).toBe(403);
    }
    expect(await count(stack, 'pay_wallets', sql`entity_id = ${carol.id}::uuid`)).toBe(0);

    const ok = await postForm('/wallet/activate', web, { chain: '153', csrf: web.csrf });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Chain account on 153 is ready.');
    expect(await count(stack, 'pay_wallets', sql`entity_id = ${carol.id}::uuid and chain_id = '153'`)).toBe(1);
  });

  it('the faucet needs the CSRF token; a refused asset name is echoed escaped', async () => {
    const before = await get('/wallet', aliceWeb);
    expect(before.text).toMatch(/<td>USDC<\/td><td>cash<\/td><td>100<\/td>/);
    const forged = await postForm('/wallet/fund', aliceWeb, { asset: 'USDC', amount: '1000' });
    expect(forged.status).toBe(403);
    const hostile = await postForm('/wallet/fund', aliceWeb, { asset: '<script>x</script>', amount: '1', csrf: aliceWeb.csrf });
    expect(hostile.status).toBe(404);
    expect(hostile.text).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(hostile.text).not.toContain('<script>x</script>');
    const after = await get('/wallet', aliceWeb);
    expect(after.text).toMatch(/<td>USDC<\/td><td>cash<\/td><td>100<\/td>/);

    const ok = await postForm('/wallet/fund', aliceWeb, { asset: 'USDC', amount: '25', csrf: aliceWeb.csrf });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Funded 25 USDC.');
    expect(ok.text).toMatch(/<td>USDC<\/td><td>cash<\/td><td>125<\/td>/);
  });
});
