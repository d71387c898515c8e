import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../services/payments/src/store/directory-store.ts';
import { addContact, count, person, startPaymentsStack, type Person } from './payments-fixture.ts';

/**
 * Auth's `POST /entities/{user|group}/{id}/chain-accounts/{chain_id}/activation` (seed 001:
 * "a walletless entity gets CHAIN_ACCOUNT_REQUIRED … activation through auth, never implicit").
 * Every refusal also asserts that no chain account came to exist.
 */
let stack: Awaited<ReturnType<typeof startPaymentsStack>>;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  stack = await startPaymentsStack();
  alice = await person(stack, 'alice@example.com', { wallet: false });
  bob = await person(stack, 'bob@example.com');
}, 180_000);
afterAll(async () => stack?.close());

async function activate(bearer: string | undefined, kind: string, id: string, chainId = '153', body: unknown = {}) {
  const res = await fetch(`${stack.url('auth')}/entities/${kind}/${id}/chain-accounts/${chainId}/activation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const walletsOf = (entityId: string, chainId?: string) =>
  count(stack, 'pay_wallets', chainId ? sql`entity_id = ${entityId}::uuid and chain_id = ${chainId}` : sql`entity_id = ${entityId}::uuid`);

async function proposeSend(key: string, to: string) {
  const client = await stack.mcpClient('payments-test', key);
  try {
    const r = await client.callTool({ name: 'propose_send', arguments: { asset: 'USDC', amount: '1', to } });
    return { isError: r.isError === true, doc: JSON.parse((r.content as Array<{ text: string }>)[0]!.text) };
  } finally {
    await client.close();
  }
}

describe('POST /entities/{kind}/{id}/chain-accounts/{chain_id}/activation', () => {
  it('is never implicit: CHAIN_ACCOUNT_REQUIRED before, a direct personal session activates, proposals work after', async () => {
    const before = await proposeSend(alice.key, bob.address);
    expect(before.isError).toBe(true);
    expect(before.doc.error).toMatchObject({ code: 'CHAIN_ACCOUNT_REQUIRED', entity: { kind: 'user', id: alice.id }, chain_id: '153' });
    // The failed proposal and reads did not open an account on the way.
    expect(await walletsOf(alice.id)).toBe(0);
    expect(await count(stack, 'pay_intents', sql`actor_user_id = ${alice.id}::uuid`)).toBe(0);

    const login = await stack.login(alice.email);
    const first = await activate(login, 'user', alice.id, '153', { display_name: 'Alice' });
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body).toMatchObject({ entity: { kind: 'user', id: alice.id }, chain_id: '153', status: 'ready', created: true });
    expect(first.body.wallet.address).toMatch(/^0x[0-9a-f]{40}$/);

    // Idempotent: activating again answers the same account.
    const again = await activate(login, 'user', alice.id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, wallet: first.body.wallet });
    expect(await walletsOf(alice.id, '153')).toBe(1);
    // One chain only: the live account stays absent until asked for.
    expect(await walletsOf(alice.id, '151')).toBe(0);

    const after = await proposeSend(alice.key, bob.address);
    expect(after.isError).toBe(false);
    expect(after.doc).toMatchObject({ status: 'proposed', created: true });
  });

  it('a connector key, a personal API key and an exchanged connector session are refused (403 personal_session_required)', async () => {
    const carol = await person(stack, 'carol@example.com', { wallet: false });
    const personalKey = (await stack.createKey(carol.email, { kind: 'personal' })).api_key;
    const exchanged = await fetch(`${stack.url('auth')}/auth/api-key/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: carol.key, resource: stack.url('payments-test'), chain_id: '153' }),
    });
    expect(exchanged.status).toBe(200);
    const session = ((await exchanged.json()) as { session_token: string }).session_token;
    for (const [label, bearer] of [
      ['connector key', carol.key],
      ['personal API key', personalKey],
      ['exchanged connector session', session],
    ] as const) {
      const r = await activate(bearer, 'user', carol.id);
      expect(r.status, label).toBe(403);
      expect(r.body.code, label).toBe('personal_session_required');
      expect(r.headers.get('www-authenticate'), label).toBeNull();
    }
    expect(await walletsOf(carol.id)).toBe(0);
    // …and the agent still sees CHAIN_ACCOUNT_REQUIRED.
    expect((await proposeSend(carol.key, bob.address)).doc.error.code).toBe('CHAIN_ACCOUNT_REQUIRED');
  });

  it('without a bearer is 401 with a challenge; nothing is created', async () => {
    const dave = await person(stack, 'dave@example.com', { wallet: false });
    const r = await activate(undefined, 'user', dave.id);
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('unauthorized');
    expect(r.headers.get('www-authenticate')).toContain('Bearer');
    expect(await walletsOf(dave.id)).toBe(0);
  });

  it("another user's entity is refused: 403 for a person, 404 for a group you are not in, 403 for a plain member", async () => {
    const erin = await person(stack, 'erin@example.com', { wallet: false });
    const frank = await person(stack, 'frank@example.com', { wallet: false });
    const erinLogin = await stack.login(erin.email);

    const other = await activate(erinLogin, 'user', frank.id);
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('forbidden');
    expect(await walletsOf(frank.id)).toBe(0);

    const frankGroup = await createGroup(stack.db.db, { name: 'Frank Ltd', ownerUserId: frank.id });
    const stranger = await activate(erinLogin, 'group', frankGroup);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('not_found');
    await addMember(stack.db.db, frankGroup, erin.id, 'member');
    const member = await activate(erinLogin, 'group', frankGroup);
    expect(member.status).toBe(403);
    expect(member.body.code).toBe('forbidden');
    expect(await walletsOf(frankGroup)).toBe(0);

    // The owner may; the group's account is the group's, not the owner's.
    const owner = await activate(await stack.login(frank.email), 'group', frankGroup);
    expect(owner.status).toBe(201);
    expect(owner.body.entity).toEqual({ kind: 'group', id: frankGroup });
    expect(await walletsOf(frankGroup, '153')).toBe(1);
    expect(await walletsOf(frank.id)).toBe(0);
  });

  it('an unknown kind, a malformed id or an unknown chain is 404 and creates nothing', async () => {
    const gina = await person(stack, 'gina@example.com', { wallet: false });
    const login = await stack.login(gina.email);
    for (const [kind, id, chain] of [
      ['robot', gina.id, '153'],
      ['user', 'not-a-uuid', '153'],
      ['user', gina.id, '1'],
    ] as const) {
      const r = await activate(login, kind, id, chain);
      expect(r.status, `${kind}/${id}/${chain}`).toBe(404);
    }
    expect(await walletsOf(gina.id)).toBe(0);
  });

  it('the live chain is activated on its own host, only when asked', async () => {
    const hank = await person(stack, 'hank@example.com');
    await addContact(stack, hank, bob);
    const r = await activate(await stack.login(hank.email), 'user', hank.id, '151');
    expect(r.status).toBe(201);
    expect(r.body.chain_id).toBe('151');
    expect(await walletsOf(hank.id, '151')).toBe(1);
    expect(await walletsOf(hank.id, '153')).toBe(1);
  });
});
