import { describe, expect, it } from 'vitest';
import { stabilitySignals } from './stability.ts';

describe('stabilitySignals (short-horizon stability)', () => {
  it('apyChange24h null stays null (≠ 0) and 0 stays an observed 0', () => {
    expect(stabilitySignals(null, 1).apyChange24h).toBeNull();
    expect(stabilitySignals(0, 1).apyChange24h).toBe(0);
  });

  it('tvlChange24hPct is the protocol-level change, null when missing', () => {
    expect(stabilitySignals(0.1, -2.2823).tvlChange24hPct).toBe(-2.28);
    expect(stabilitySignals(0.1, null).tvlChange24hPct).toBeNull();
  });

  it.each([
    [0.1, 1, 'high'],
    [null, 1, 'medium'],
    [0.1, null, 'medium'],
    [null, null, 'low'],
  ] as const)('stabilityConfidence from signals present (%s, %s) ⇒ %s', (a, t, c) => {
    expect(stabilitySignals(a, t).stabilityConfidence).toBe(c);
  });

  it('|apyChange24h| ≥ 5 pp is a warning only; 4.99 is not', () => {
    expect(stabilitySignals(5, 0).warnings).toEqual([expect.stringContaining('+5.00 pp')]);
    expect(stabilitySignals(-6.2, 0).warnings).toEqual([expect.stringContaining('-6.20 pp')]);
    expect(stabilitySignals(4.99, 0).warnings).toEqual([]);
  });
});
