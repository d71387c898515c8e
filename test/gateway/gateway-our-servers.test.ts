import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDefillama, type FakeDefillama } from '../../services/research/src/testing/fake-defillama.ts';
import { activateChainAccount } from '../../services/payments/src/store/directory-store.ts';
import { fundWallet } from '../../services/payments/src/store/faucet.ts';
import type { GatewayService } from '../../services/gateway/src/app.ts';
import { startStack, type Stack } from '../support/stack.ts';

/**
 * The gateway in front of OUR servers (issue 7, "Must show"): auth, research (pointed at the
 * DefiLlama fixture server), payments-test and the gateway, all from the default
 * `gateway.config.json` — no test registry file. Knowledge and payments-live are registered by
 * that file but deliberately not started, so their discovery fails while the others serve.
 */
const TEST_CHAIN = '153';
let fake: FakeDefillama;
let stack: Stack;
let gateway: GatewayService;
let agent: Client;
let direct: Client;
let aliceId: string;
let aliceKey: string;
let bobAddress: string;

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const json = (r: unknown) => JSON.parse(text(r));

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await agent.callTool({ name, arguments: args })) as CallToolResult;
}

beforeAll(async () => {
  fake = await startFakeDefillama();
  // Research and payments read their own env at build time; this forked test process is the
  // only reader. The same values also go to the stack's shared config for the record.
  const env = {
    DEFILLAMA_YIELDS_URL: fake.url,
    DEFILLAMA_STABLECOINS_URL: fake.url,
    DEFILLAMA_API_URL: fake.url,
    PAYMENTS_WORKER_ENABLED: 'false',
  };
  Object.assign(process.env, env);
  delete process.env.GATEWAY_CONFIG;
  stack = await startStack({ services: ['research', 'payments-test', 'gateway'], env });
  gateway = stack.services.gateway as GatewayService;

  const alice = await stack.createUser({ email: 'alice@example.com' });
  const bob = await stack.createUser({ email: 'bob@example.com' });
  aliceId = alice.id;
  await activateChainAccount(stack.db.db, { entityKind: 'user', entityId: alice.id, chainId: TEST_CHAIN, displayName: alice.email, createdBy: alice.id });
  await fundWallet(stack.db.db, { userId: alice.id, chainId: TEST_CHAIN, asset: 'USDC', amount: '500' });
  bobAddress = (await activateChainAccount(stack.db.db, { entityKind: 'user', entityId: bob.id, chainId: TEST_CHAIN, displayName: bob.email, createdBy: bob.id })).wallet.address;

  aliceKey = (await stack.createKey('alice@example.com', { kind: 'connector', chains: [TEST_CHAIN] })).api_key;
  agent = await stack.mcpClient('gateway', aliceKey);
  direct = await stack.mcpClient('research', aliceKey);
}, 240_000);

afterAll(async () => {
  await agent?.close();
  await direct?.close();
  await stack?.close();
  await fake?.close();
});

describe('default registry: our servers', () => {
  it('is seeded from gateway.config.json with our four servers at their deployment resource URLs', async () => {
    const rows = await stack.db.rows<{ name: string; url: string; prefix: string; auth: { kind: string } }>(sql`select name, url, prefix, auth from gw_upstreams order by name`);
    expect(rows.map((r) => [r.name, r.url, r.prefix, r.auth.kind])).toEqual([
      ['knowledge', stack.config.services.knowledge.resource, 'kb', 'obo'],
      ['payments-live', stack.config.services['payments-live'].resource, 'paylive', 'obo'],
      ['payments-test', stack.config.services['payments-test'].resource, 'pay', 'obo'],
      ['research', stack.config.services.research.resource, 'research', 'obo'],
    ]);
  });

  it('discovers them lazily with the first caller\'s token; a server that is down does not hide the others', async () => {
    const found = json(await call('search_tools', { query: 'best stablecoin yield on base', limit: 5 }));
    expect(found.tools.map((t: { name: string }) => t.name)).toContain('research_list_yields');
    const hit = found.tools.find((t: { name: string }) => t.name === 'research_list_yields');
    expect(hit).toMatchObject({ router: 'invoke_tool', state: 'ok' });

    const send = json(await call('search_tools', { query: 'send 50 USDC to Alice', limit: 5 }));
    expect(send.tools.map((t: { name: string }) => t.name)).toContain('pay_propose_send');
    expect(send.tools.find((t: { name: string }) => t.name === 'pay_propose_send').router).toBe('invoke_stateful_tool');

    const rows = await stack.db.rows<{ name: string; discovered: boolean; last_error: string | null }>(
      sql`select name, discovered_at is not null as discovered, last_error from gw_upstreams order by name`,
    );
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName.research!.last_error).toBeNull();
    expect(byName['payments-test']!.last_error).toBeNull();
    const upstreamsWithTools = new Set(gateway.registry.catalog().tools.map((t) => t.upstream.name));
    expect(upstreamsWithTools.has('research') && upstreamsWithTools.has('payments-test')).toBe(true);
    // Not started in this test: discovery failed, recorded, and retried later — not per call.
    expect(byName.knowledge!.discovered).toBe(false);
    expect(byName.knowledge!.last_error).toBeTruthy();
    expect(gateway.registry.catalog().tools.some((t) => t.upstream.name === 'knowledge')).toBe(false);

    // A failed discovery backs off: the next callers neither wait for it nor re-dial the server.
    const discover = gateway.registry.discover.bind(gateway.registry);
    const dialled: string[] = [];
    gateway.registry.discover = (u, s) => (dialled.push(u.name), discover(u, s));
    try {
      json(await call('search_tools', { query: 'contracts mentioning SOFR' }));
    } finally {
      gateway.registry.discover = discover;
    }
    expect(dialled).toEqual([]);
  });
});

describe('routed calls to research', () => {
  it('invoke_tool research_list_yields returns the direct call\'s data plus a receipt that validate_task_result accepts', async () => {
    const args = { chains: ['base'], assets: ['USDC'], limit: 5 };
    const viaDirect = JSON.parse(text(await direct.callTool({ name: 'list_yields', arguments: args })));
    const routed = await call('invoke_tool', { tool: 'research_list_yields', arguments: args, task_id: 'yield-hunt' });
    expect(routed.isError).toBeFalsy();
    const viaGateway = json(routed);
    expect(viaDirect.ok).toBe(true);
    expect(viaGateway.ok).toBe(true);
    expect(viaDirect.data.opportunities.length).toBeGreaterThan(0);
    // Same data; only the per-request id and the clock differ between two calls.
    expect(viaGateway.data).toEqual(viaDirect.data);

    const { _gateway } = routed.structuredContent as { _gateway: Record<string, unknown> };
    expect(_gateway).toMatchObject({ upstream: 'research', tool: 'research_list_yields', task_id: 'yield-hunt', runtime_state: 'ok', cached: false, cost_micro_usdc: 5000 });
    const lastBlock = routed.content[routed.content.length - 1] as { text: string };
    expect(JSON.parse(lastBlock.text)._gateway).toEqual(_gateway);

    const verdict = json(
      await call('validate_task_result', {
        receipts: [_gateway],
        claims: [{ statement: `The best USDC pool on Base is ${viaGateway.data.opportunities[0].id}`, receipt_ids: [_gateway.receipt_id] }],
        coverage: [{ phase: 'yields', status: 'covered', receipt_ids: [_gateway.receipt_id] }],
      }),
    );
    expect(verdict.valid).toBe(true);
    const altered = json(await call('validate_task_result', { receipts: [{ ..._gateway, input_sha256: '0'.repeat(64) }] }));
    expect(altered.valid).toBe(false);
  });

  it('research sees an on-behalf-of token for its own audience, minted for the caller', async () => {
    const token = await gateway.registry.credentialFor(gateway.registry.catalog().upstreams.get('research')!, {
      subject: aliceId,
      sessionToken: '',
      kind: 'connector',
      chainId: TEST_CHAIN,
      audience: stack.config.services.gateway.resource,
      scopes: [],
      expiresAt: 0,
    } as never);
    expect(decodeJwt(token!)).toMatchObject({ aud: stack.config.services.research.resource, token_use: 'obo', sub: aliceId });
  });
});

describe('routed calls to payments-test', () => {
  it('a read tool goes through invoke_tool', async () => {
    const tools = gateway.registry.catalog().tools.filter((t) => t.upstream.name === 'payments-test');
    const readTool = tools.find((t) => t.readOnly && t.upstreamTool === 'list_assets') ?? tools.find((t) => t.readOnly)!;
    const r = await call('invoke_tool', { tool: readTool.name, arguments: {} });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { _gateway: { upstream: string } })._gateway.upstream).toBe('payments-test');
  });

  it('propose_send runs through invoke_stateful_tool at once by the auto-approve policy, and files a proposal only', async () => {
    const approvalsBefore = await stack.db.rows<{ n: number }>(sql`select count(*)::int as n from gw_approvals`);
    const r = await call('invoke_stateful_tool', { tool: 'pay_propose_send', arguments: { asset: 'USDC', amount: '12.50', to: bobAddress, title: 'Lunch' } });
    if (r.isError) throw new Error(`propose_send failed: ${text(r)}`);
    const proposal = r.structuredContent as Record<string, any>;
    expect(proposal).toMatchObject({ status: 'proposed', created: true });
    expect(proposal.confirm_url).toContain(`/private?reader=intent/${proposal.workspace_id}/${proposal.intent_id}`);
    expect(proposal._gateway).toMatchObject({ upstream: 'payments-test', tool: 'pay_propose_send', runtime_state: 'ok' });
    // No gateway approval was needed (policy), and nothing moved: the intent waits for the person.
    const approvalsAfter = await stack.db.rows<{ n: number }>(sql`select count(*)::int as n from gw_approvals`);
    expect(approvalsAfter[0]!.n).toBe(approvalsBefore[0]!.n);
    const intents = await stack.db.rows<{ status: string }>(sql`select status from pay_intents where id = ${proposal.intent_id}`);
    expect(intents.map((i) => i.status)).toEqual(['proposed']);
  });
});
