import { describe, expect, it } from 'vitest';
import { freshnessMeta, type SourceStamp } from './freshness.ts';

const now = new Date('2026-09-02T12:00:00Z');
const ago = (s: number) => new Date(now.getTime() - s * 1000);
const policy = { warnSeconds: 1800, degradeSeconds: 7200 };
const MARKET = ['defillama:yields', 'defillama:pegs'];

function stamps(yieldsAge: number | null, pegsAge: number | null, protocolsAge: number | null = 6 * 3600): SourceStamp[] {
  return [
    { source: 'defillama:yields', asOf: yieldsAge === null ? null : ago(yieldsAge), lastSuccessAt: now },
    { source: 'defillama:pegs', asOf: pegsAge === null ? null : ago(pegsAge), lastSuccessAt: now },
    { source: 'defillama:protocols', asOf: protocolsAge === null ? null : ago(protocolsAge), lastSuccessAt: now },
  ];
}

describe('freshnessMeta (seed "Data freshness")', () => {
  it('dataAgeSeconds is the oldest yields/pegs asOf; lastRefreshedAt the newest; protocol-meta never counts', () => {
    const f = freshnessMeta(stamps(60, 300), MARKET, now, policy);
    expect(f).toMatchObject({ dataAgeSeconds: 300, lastRefreshedAt: ago(60).toISOString(), degraded: false, warnings: [] });
    expect(f.sourcesFreshness.map((s) => s.source)).toEqual(['defillama:yields', 'defillama:pegs', 'defillama:protocols']);
  });
  it('warn at ≥ 30 min, not before', () => {
    expect(freshnessMeta(stamps(1799, 0), MARKET, now, policy).warnings).toEqual([]);
    expect(freshnessMeta(stamps(2700, 0), MARKET, now, policy)).toMatchObject({ degraded: false, warnings: ['Data age 45 minutes exceeds warn threshold (30 minutes)'] });
  });
  it('degrade at ≥ 2 h with its own warning', () => {
    const f = freshnessMeta(stamps(7200, 0), MARKET, now, policy);
    expect(f.degraded).toBe(true);
    expect(f.warnings).toEqual(['Data age 120 minutes exceeds warn threshold (30 minutes)', 'Data age 120 minutes exceeds degrade threshold (120 minutes); results are degraded']);
    expect(freshnessMeta(stamps(7199, 0), MARKET, now, policy).degraded).toBe(false);
  });
  it('a missing market timestamp makes the age null and invents no warning', () => {
    const f = freshnessMeta(stamps(null, 99_999), MARKET, now, policy);
    expect(f).toMatchObject({ dataAgeSeconds: null, degraded: false, warnings: [] });
  });
  it('get_protocol_risk ages on protocol-meta', () => {
    expect(freshnessMeta(stamps(0, 0, 9000), ['defillama:protocols'], now, policy)).toMatchObject({ dataAgeSeconds: 9000, degraded: true });
  });
});
