import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID } from '../testing/defillama-fixtures.ts';
import { startResearchHarness, type ResearchHarness } from '../testing/research-harness.ts';

let h: ResearchHarness;
beforeAll(async () => {
  h = await startResearchHarness();
  // PGlite start plus every service's migrations: slow on a loaded 2-core machine.
}, 180_000);
afterAll(async () => {
  await h.close();
});

const totalHits = () => h.fake.hits['/pools'] + h.fake.hits['/stablecoins'] + h.fake.hits['/protocols'];

describe('tools/list (MCP catalog)', () => {
  it('publishes real input schemas, alias groups as anyOf, health as {}', async () => {
    const { tools } = await (await h.client()).listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(['compare_opportunities', 'explain_score', 'get_protocol_risk', 'health', 'list_yields', 'score_opportunity']);
    expect(byName.health.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    for (const t of ['score_opportunity', 'explain_score']) expect(byName[t].inputSchema.anyOf).toEqual([{ required: ['id'] }, { required: ['opportunityId'] }, { required: ['poolId'] }]);
    expect(byName.compare_opportunities.inputSchema.anyOf).toEqual([{ required: ['poolIds'] }, { required: ['opportunityIds'] }]);
    expect(byName.get_protocol_risk.inputSchema.anyOf).toEqual([{ required: ['protocol'] }, { required: ['protocolSlug'] }]);
    expect(Object.keys(byName.list_yields.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['chains', 'chainIds', 'assets', 'minTvlUsd', 'limit', 'horizonDays', 'notionalUsd', 'protocols', 'sourceChainKey', 'sortBy', 'sortOrder', 'riskAppetite', 'minScore', 'categories', 'excludeCategories', 'diversity', 'includeFactors', 'maxRewardShare']),
    );
    for (const t of tools) expect(t.outputSchema, t.name).toBeDefined();
  });
});

describe('list_yields envelope and meta', () => {
  it('answers the seed envelope with defaults echoed and host notes', async () => {
    const { result, envelope } = await h.call('list_yields', {});
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(envelope);
    expect(envelope).toMatchObject({ ok: true, schemaVersion: '1.0.0', requestId: expect.any(String) });
    const m = envelope.meta;
    expect(m).toMatchObject({
      degraded: false,
      sortBy: 'risk_adjusted',
      sortOrder: 'desc',
      riskAppetite: 'balanced',
      weights: { protocolRisk: 0.3, depegCounterparty: 0.25, liquidity: 0.2, yieldQuality: 0.15, costAdjusted: 0.1 },
      minScore: null,
      categoriesApplied: [],
      excludeCategoriesApplied: [],
      diversity: 'soft',
      chains: ['ethereum', 'base', 'arbitrum'],
      limit: 10,
      horizonDays: 30,
      notionalUsd: 10000,
      scoreLegend: expect.stringContaining('risk-adjusted'),
      disclaimer: expect.stringContaining('never holds keys'),
    });
    expect(typeof m.truncatedDueToDiversity).toBe('boolean');
    expect(m.protocolsRepresented).toBeGreaterThan(1);
    expect(m.sourcesFreshness.map((s: { source: string }) => s.source)).toEqual(['defillama:yields', 'defillama:pegs', 'defillama:protocols']);
    expect(m.dataAgeSeconds).toEqual(expect.any(Number));
    const ops = envelope.data.opportunities;
    expect(ops).toHaveLength(10);
    expect(envelope.data.ranking).toBe('compositeRiskAdjusted');
    expect(m.humanLeadIn).toContain(ops[0].protocolName);
    expect(m.suggestedNextSteps.find((s: { tool: string }) => s.tool === 'explain_score').argsHint.id).toBe(ops[0].id);
    expect(m.suggestedNextSteps.find((s: { tool: string }) => s.tool === 'compare_opportunities').argsHint.poolIds).toEqual([ops[0].id, ops[1].id]);
    for (const o of ops) expect(Object.keys(o.apy)).toEqual(expect.arrayContaining(['base', 'reward', 'total', 'rewardShare']));
  });

  it('echoes applied controls', async () => {
    const { envelope } = await h.call('list_yields', { riskAppetite: 'conservative', minScore: 80, categories: ['lending', 'rwa'], excludeCategories: ['rwa'], diversity: 'off', sortBy: 'net_apy', sortOrder: 'asc', maxRewardShare: 0.3, includeFactors: true });
    expect(envelope.meta).toMatchObject({ riskAppetite: 'conservative', minScore: 80, categoriesApplied: ['lending', 'rwa'], excludeCategoriesApplied: ['rwa'], diversity: 'off', sortBy: 'net_apy', sortOrder: 'asc', maxRewardShare: 0.3, truncatedDueToDiversity: false });
    expect(envelope.data.ranking).toBe('net_apy');
    expect(envelope.data.opportunities.every((o: { category: string }) => o.category === 'lending')).toBe(true);
    expect(envelope.data.opportunities[0].scores.factors).toBeDefined();
  });

  it('an empty shortlist after caller filters is a warning, not degraded; humanLeadIn omitted; legend kept', async () => {
    const { result, envelope } = await h.call('list_yields', { minScore: 100 });
    expect(result.isError).toBeFalsy();
    expect(envelope.data.opportunities).toEqual([]);
    expect(envelope.meta.degraded).toBe(false);
    expect(envelope.meta.warnings).toEqual([expect.stringContaining('No opportunities match')]);
    expect(envelope.meta).not.toHaveProperty('humanLeadIn');
    expect(envelope.meta).not.toHaveProperty('rankContrastNote');
    expect(envelope.meta.scoreLegend).toBeTruthy();
  });

  it('chainIds works like chains, and omitted chains default to all three', async () => {
    const { envelope } = await h.call('list_yields', { chainIds: ['arbitrum'] });
    expect(envelope.meta.chains).toEqual(['arbitrum']);
    expect(envelope.data.opportunities.every((o: { chain: string }) => o.chain === 'arbitrum')).toBe(true);
  });

  it.each([
    ['eth', 'ethereum'],
    ['ARB', 'arbitrum'],
    ['Ethereum', 'ethereum'],
    ['BASE', 'base'],
  ])('sourceChainKey alias %s resolves to %s and adds bridge cost off-chain', async (alias, key) => {
    const { envelope } = await h.call('list_yields', { sourceChainKey: alias, diversity: 'off', limit: 100 });
    expect(envelope.meta.sourceChainKey).toBe(key);
    const ops = envelope.data.opportunities as { chain: string; costs: { totalRoundTripUsd: number; gasRoundTripUsd: number } }[];
    for (const o of ops) {
      if (o.chain === key) expect(o.costs.totalRoundTripUsd).toBe(o.costs.gasRoundTripUsd);
      else expect(o.costs.totalRoundTripUsd).toBeGreaterThan(o.costs.gasRoundTripUsd);
    }
  });
});

describe('VALIDATION_ERROR (names the value; nothing else happens)', () => {
  it.each([
    [{ chains: ['solana'] }, '"solana"'],
    [{ chains: ['optimism'] }, '"optimism"'],
    [{ chains: [''] }, '""'],
    [{ chains: ['  '] }, '"  "'],
    [{ chains: ['base', 'solana'] }, '"solana"'],
    [{ chains: ['base', ''] }, '""'],
    [{ chainIds: ['optimism'] }, '"optimism"'],
    [{ chains: 'base' }, '"base"'],
    [{ sourceChainKey: 'optimism' }, '"optimism"'],
    [{ sourceChainKey: '' }, '""'],
    [{ minScore: 'abc' }, '"abc"'],
    [{ minScore: 101 }, '101'],
    [{ limit: 0 }, '0'],
    [{ limit: 1000 }, '1000'],
    [{ limit: 2.5 }, '2.5'],
    [{ maxRewardShare: 1.5 }, '1.5'],
    [{ sortBy: 'apy' }, '"apy"'],
    [{ riskAppetite: 'yolo' }, '"yolo"'],
    [{ categories: ['treasury'] }, '"treasury"'],
    [{ diversity: 'hard' }, '"hard"'],
    [{ assets: [''] }, '""'],
    [{ bogus: 1 }, '"bogus"'],
  ])('list_yields %j', async (args, named) => {
    const before = totalHits();
    const { result, envelope } = await h.call('list_yields', args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(envelope).toMatchObject({ ok: false, schemaVersion: '1.0.0', error: { code: 'VALIDATION_ERROR' } });
    expect(envelope.error!.message).toContain(named);
    expect(envelope).not.toHaveProperty('data');
    expect(totalHits()).toBe(before);
  });

  it.each([
    ['score_opportunity', {}],
    ['score_opportunity', { id: ID.aaveUsdcEth, poolId: ID.aaveUsdtEth }],
    ['explain_score', { id: '  ' }],
    ['compare_opportunities', { poolIds: [ID.aaveUsdcEth] }],
    ['compare_opportunities', {}],
    ['get_protocol_risk', {}],
    ['health', { x: 1 }],
  ])('%s %j', async (tool, args) => {
    const { result, envelope } = await h.call(tool, args);
    expect(result.isError).toBe(true);
    expect(envelope.error!.code).toBe('VALIDATION_ERROR');
  });
});

describe('id chaining list_yields → score / explain / compare / protocol risk', () => {
  it.each(['id', 'opportunityId', 'poolId'])('score_opportunity and explain_score accept %s', async (alias) => {
    const { envelope: list } = await h.call('list_yields', { limit: 2 });
    const first = list.data.opportunities[0];
    const { envelope: scored } = await h.call('score_opportunity', { [alias]: first.id, horizonDays: 30 });
    expect(scored.ok).toBe(true);
    expect(scored.data.opportunity).toMatchObject({ id: first.id, scores: { compositeRiskAdjusted: first.scores.compositeRiskAdjusted } });
    expect(scored.data.opportunity.factors.map((f: { id: string }) => f.id)).toEqual(['protocolRisk', 'depegCounterparty', 'liquidity', 'yieldQuality', 'costAdjusted']);
    const { envelope: explained } = await h.call('explain_score', { [alias]: first.id });
    expect(explained.data.summary).toContain(first.protocolName);
    expect(explained.data.bullets.length).toBeGreaterThanOrEqual(5);
    expect(explained.data.factors.map((f: { score: number }) => f.score)).toEqual(scored.data.opportunity.factors.map((f: { score: number }) => f.score));
  });

  it.each(['poolIds', 'opportunityIds'])('compare_opportunities accepts %s and ranks by composite', async (alias) => {
    const { envelope: list } = await h.call('list_yields', { limit: 3 });
    const ids = list.data.opportunities.map((o: { id: string }) => o.id).reverse();
    const { envelope } = await h.call('compare_opportunities', { [alias]: ids });
    expect(envelope.ok).toBe(true);
    expect(envelope.data.winner.id).toBe(list.data.opportunities[0].id);
    expect(envelope.data.ranked.map((o: { id: string }) => o.id)).toEqual(list.data.opportunities.map((o: { id: string }) => o.id));
    expect(envelope.data.rationale).toContain('wins on composite');
  });

  it.each(['protocol', 'protocolSlug'])('get_protocol_risk accepts %s with the list protocolSlug', async (alias) => {
    const { envelope: list } = await h.call('list_yields', { limit: 1 });
    const slug = list.data.opportunities[0].protocolSlug;
    const { envelope } = await h.call('get_protocol_risk', { [alias]: slug });
    expect(envelope.data).toMatchObject({ protocolSlug: slug, protocolRisk: { score: list.data.opportunities[0].scores.protocolRisk } });
    expect(envelope.meta.dataAgeSeconds).toEqual(expect.any(Number));
  });

  it('BUIDL protocol card carries the transfer restriction; Pendle duplicate rows count once in deduped TVL', async () => {
    const { envelope } = await h.call('get_protocol_risk', { protocol: 'blackrock-buidl' });
    expect(envelope.data.knownIssues[0]).toMatch(/transfers restricted/);
    const { envelope: pendle } = await h.call('get_protocol_risk', { protocol: 'pendle' });
    expect(pendle.data.inScopeMarkets).toMatchObject({ count: 2, dedupedTvlUsd: 50_000_000 });
  });

  it.each([
    ['score_opportunity', { id: '00000000-0000-4000-8000-00000000dead' }, '00000000-0000-4000-8000-00000000dead'],
    ['explain_score', { poolId: ID.kaminoSolana }, ID.kaminoSolana],
    ['compare_opportunities', { poolIds: [ID.aaveUsdcEth, 'nope'] }, 'nope'],
    ['get_protocol_risk', { protocol: 'no-such-protocol' }, 'no-such-protocol'],
  ])('%s with an unknown id is NOT_FOUND naming it', async (tool, args, named) => {
    const { result, envelope } = await h.call(tool, args);
    expect(result.isError).toBe(true);
    expect(envelope.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining(named) });
  });
});
