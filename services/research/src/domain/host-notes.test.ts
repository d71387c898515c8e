import { describe, expect, it } from 'vitest';
import { humanLeadIn, rankContrastNote, SCORE_LEGEND, suggestNextSteps } from './host-notes.ts';
import type { Opportunity } from './opportunity.ts';

function op(id: string, apyNet: number, extra: { liquidity?: number; protocolRisk?: number; rewardShare?: number; protocol?: string } = {}): Opportunity {
  return {
    id,
    protocolSlug: extra.protocol ?? id,
    protocolName: `P-${id}`,
    chainName: 'Base',
    symbol: 'USDC',
    apy: { base: apyNet, reward: 0, total: apyNet, rewardShare: extra.rewardShare ?? 0, net: apyNet },
    scores: { protocolRisk: extra.protocolRisk ?? 90, depegCounterparty: 95, liquidity: extra.liquidity ?? 90, yieldQuality: 90, costAdjusted: 80, compositeRiskAdjusted: 90 },
    tvlUsd: 1e8,
  } as unknown as Opportunity;
}

describe('rankContrastNote (exact rules)', () => {
  it('prefers #2 when it out-yields #1 by ≥ 0.25 pp, naming both and one reason', () => {
    const note = rankContrastNote([op('a', 4), op('b', 4.5, { liquidity: 70 }), op('c', 9)]);
    expect(note).toBe('P-b on Base (#2) pays a higher net APY (4.50% vs 4.00%) than #1 P-a on Base but ranks lower because of thinner liquidity.');
  });
  it('else takes the highest-APY row in the top 5, never beyond', () => {
    const rows = [op('a', 4), op('b', 3.9), op('c', 4.3, { protocolRisk: 70 }), op('d', 4.1), op('e', 4.2), op('f', 30)];
    expect(rankContrastNote(rows)).toContain('P-c on Base (#3)');
    expect(rankContrastNote(rows)).toContain('higher protocol risk');
  });
  it('omitted when #1 leads APY in the window or the gap is < 0.25 pp', () => {
    expect(rankContrastNote([op('a', 5), op('b', 4), op('c', 4.5)])).toBeUndefined();
    expect(rankContrastNote([op('a', 4), op('b', 4.24), op('c', 4.2)])).toBeUndefined();
    expect(rankContrastNote([op('a', 4), op('b', 3), op('c', 3), op('d', 3), op('e', 3), op('f', 9)])).toBeUndefined();
    expect(rankContrastNote([op('a', 4)])).toBeUndefined();
  });
  it('incentive share and the combined fallback are honest reasons', () => {
    expect(rankContrastNote([op('a', 4), op('b', 5, { rewardShare: 0.5 })])).toContain('more of its APY from incentives');
    expect(rankContrastNote([op('a', 4), op('b', 5)])).toContain('combined risk factors');
  });
});

describe('humanLeadIn', () => {
  it('names the real #1 and follows sortBy; omitted when empty', () => {
    expect(humanLeadIn([op('a', 4)], 'risk_adjusted', 'desc')).toMatch(/^Top by risk-adjusted score: P-a USDC on Base/);
    expect(humanLeadIn([op('a', 4)], 'net_apy', 'desc')).toMatch(/^The highest net APY/);
    expect(humanLeadIn([op('a', 4)], 'gross_apy', 'desc')).toMatch(/^The highest gross APY/);
    expect(humanLeadIn([op('a', 4)], 'tvl', 'desc')).toMatch(/^The deepest pool/);
    expect(humanLeadIn([], 'risk_adjusted', 'desc')).toBeUndefined();
  });
});

describe('suggestNextSteps', () => {
  it('3–5 steps carrying real ids from #1 and #2', () => {
    const steps = suggestNextSteps([op('a', 4, { protocol: 'aave-v3' }), op('b', 4)], { horizonDays: 30, notionalUsd: 10_000, chains: ['base'] });
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.length).toBeLessThanOrEqual(5);
    expect(steps.find((s) => s.tool === 'explain_score')!.argsHint).toEqual({ id: 'a' });
    expect(steps.find((s) => s.tool === 'compare_opportunities')!.argsHint).toEqual({ poolIds: ['a', 'b'] });
    expect(steps.find((s) => s.tool === 'get_protocol_risk')!.argsHint).toEqual({ protocol: 'aave-v3' });
  });
  it('an empty list still gets 3 steps, none with invented ids', () => {
    const steps = suggestNextSteps([], { horizonDays: 30, notionalUsd: 10_000, chains: ['base'] });
    expect(steps).toHaveLength(3);
    expect(JSON.stringify(steps)).not.toMatch(/"id"/);
  });
  it('the legend says risk-adjusted, not APY, not a guarantee', () => {
    expect(SCORE_LEGEND).toMatch(/0–100 risk-adjusted/);
    expect(SCORE_LEGEND).toMatch(/not an APY and not a safety guarantee/);
  });
});
