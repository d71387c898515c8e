import { describe, expect, it } from 'vitest';
import { assessExitRisk, TRANSFER_RESTRICTION_WARNING } from './exit-risk.ts';

describe('assessExitRisk (ExitRisk v1)', () => {
  it('low only with high liquidity confidence and TVL ≥ 50× notional', () => {
    expect(assessExitRisk(500_000, 'high', 10_000, []).exitRisk).toBe('low');
    expect(assessExitRisk(499_999, 'high', 10_000, []).exitRisk).toBe('medium');
    expect(assessExitRisk(1e9, 'medium', 10_000, [])).toMatchObject({ exitRisk: 'medium', exitRiskReason: expect.stringContaining('medium liquidity confidence') });
  });

  it.each([
    [null, 'high', 10_000],
    [0, 'high', 10_000],
    [Number.NaN, 'high', 10_000],
    [1e9, null, 10_000],
    [1e9, 'high', 0],
  ] as const)('missing/invalid inputs (tvl %s, confidence %s, notional %s) are unknown, never low', (tvl, conf, notional) => {
    const r = assessExitRisk(tvl, conf, notional, []);
    expect(r.exitRisk).toBe('unknown');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^exitRisk unknown/);
  });

  it('high when the position is more than a tenth of the pool, with a soft warning', () => {
    const r = assessExitRisk(50_000, 'high', 10_000, []);
    expect(r.exitRisk).toBe('high');
    expect(r.warnings).toEqual([expect.stringMatching(/^exitRisk high \(liquidity heuristic\)/)]);
  });

  it('larger notional stresses thin pools but not deep blue chips', () => {
    expect(assessExitRisk(1e9, 'high', 10_000, []).exitRisk).toBe('low');
    expect(assessExitRisk(1e9, 'high', 250_000, []).exitRisk).toBe('low');
    expect(assessExitRisk(5e6, 'high', 10_000, []).exitRisk).toBe('low');
    expect(assessExitRisk(5e6, 'high', 250_000, []).exitRisk).toBe('medium');
  });

  it('knownIssues naming transfer/eligibility restrictions add the liquidity-only warning to low and medium', () => {
    const issues = ['Permissioned token: transfers restricted to whitelisted qualified purchasers (eligibility)'];
    expect(assessExitRisk(6e8, 'high', 10_000, issues)).toMatchObject({ exitRisk: 'low', warnings: [TRANSFER_RESTRICTION_WARNING] });
    expect(assessExitRisk(6e8, 'medium', 10_000, issues)).toMatchObject({ exitRisk: 'medium', warnings: [TRANSFER_RESTRICTION_WARNING] });
    expect(assessExitRisk(6e8, 'high', 10_000, ['New codebase']).warnings).toEqual([]);
  });
});
