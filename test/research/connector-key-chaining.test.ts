import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDefillama, type FakeDefillama } from '../../services/research/src/testing/fake-defillama.ts';
import { startStack, type Stack } from '../support/stack.ts';

let fake: FakeDefillama;
let stack: Stack;
let client: Client;

beforeAll(async () => {
  fake = await startFakeDefillama();
  // The research service reads its own env at build time (services/research/src/config.ts); this
  // forked test process is the only reader, so pointing it at the fake here is contained.
  process.env.DEFILLAMA_YIELDS_URL = fake.url;
  process.env.DEFILLAMA_STABLECOINS_URL = fake.url;
  process.env.DEFILLAMA_API_URL = fake.url;
  stack = await startStack({ services: ['research'] });
  await stack.createUser({ email: 'researcher@example.com' });
  const { api_key } = await stack.createKey('researcher@example.com', { kind: 'connector' });
  client = await stack.mcpClient('research', api_key);
  // PGlite start plus every service's migrations: slow on a loaded 2-core machine.
}, 180_000);
afterAll(async () => {
  await client?.close();
  await stack?.close();
  await fake?.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { result, envelope: JSON.parse((result.content[0] as { text: string }).text) };
}

describe('research over HTTP with a connector key (real SDK client)', () => {
  it('lists the six tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['compare_opportunities', 'explain_score', 'get_protocol_risk', 'health', 'list_yields', 'score_opportunity']);
  });

  it('chains list_yields ids through every alias', async () => {
    const { envelope: list } = await call('list_yields', { chains: ['base', 'ethereum'], assets: ['USDC', 'USDT'], minTvlUsd: 5_000_000, limit: 10, horizonDays: 30, notionalUsd: 10_000 });
    expect(list.ok).toBe(true);
    const [a, b] = list.data.opportunities;
    for (const alias of ['id', 'opportunityId', 'poolId']) {
      const { envelope: s } = await call('score_opportunity', { [alias]: a.id, horizonDays: 30 });
      expect(s.data.opportunity.id).toBe(a.id);
      const { envelope: e } = await call('explain_score', { [alias]: a.id });
      expect(e.data.id).toBe(a.id);
    }
    for (const alias of ['poolIds', 'opportunityIds']) {
      const { envelope: c } = await call('compare_opportunities', { [alias]: [b.id, a.id] });
      expect(c.data.winner.id).toBe(a.id);
    }
    for (const alias of ['protocol', 'protocolSlug']) {
      const { envelope: p } = await call('get_protocol_risk', { [alias]: a.protocolSlug });
      expect(p.data.protocolSlug).toBe(a.protocolSlug);
    }
  });

  it('a validation failure is an isError result with the seed envelope', async () => {
    const { result, envelope } = await call('list_yields', { chains: ['base', 'solana'] });
    expect(result.isError).toBe(true);
    expect(envelope.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('"solana"') });
  });
});
