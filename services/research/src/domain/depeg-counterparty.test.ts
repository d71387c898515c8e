import { describe, expect, it } from 'vitest';
import { parseStablecoinsResponse } from '../upstream/defillama-records.ts';
import { fixtureStablecoins } from '../testing/defillama-fixtures.ts';
import { assessDepegCounterparty } from './depeg-counterparty.ts';
import { buildPegIndex } from './peg-index.ts';

const pegs = buildPegIndex(parseStablecoinsResponse(fixtureStablecoins()).records);

describe('assessDepegCounterparty (stablecoins feed, never the pool flag)', () => {
  it('a fiat-backed coin on peg scores high', () => {
    expect(assessDepegCounterparty(['USDC'], pegs, false).score).toBe(96);
  });
  it('a coin 65% off peg scores 0 and raises a concern, even though DefiLlama flags the pool stable', () => {
    const r = assessDepegCounterparty(['MSUSD'], pegs, false);
    expect(r.score).toBe(0);
    expect(r.concerns).toEqual([expect.stringContaining('Depeg risk: MSUSD')]);
  });
  it('a yield-accruing coin priced above 1 is not a depeg', () => {
    const r = assessDepegCounterparty(['USDY'], pegs, false);
    expect(r.score).toBe(96);
    expect(r.coins[0].note).toContain('yield-accruing');
  });
  it('a null price is unknown and penalised, not assumed on peg', () => {
    const r = assessDepegCounterparty(['USDX'], pegs, false);
    expect(r.score).toBe(55);
    expect(r.concerns).toEqual([expect.stringContaining('no market price')]);
  });
  it('wrappers resolve to their underlying coin by suffix', () => {
    expect(assessDepegCounterparty(['STEAKUSDC'], pegs, false).coins[0].matchedSymbol).toBe('USDC');
    expect(assessDepegCounterparty(['SUSDAI'], pegs, false).coins[0].matchedSymbol).toBe('USDAI');
  });
  it('every coin counts: the weakest link sets the score', () => {
    expect(assessDepegCounterparty(['USDC', 'MSUSD'], pegs, false).score).toBe(0);
    expect(assessDepegCounterparty(['DAI', 'USDC', 'USDT'], pegs, false).score).toBe(88 - 4);
  });
  it('algorithmic backing and unknown coins score low; rwa carries issuer risk', () => {
    expect(assessDepegCounterparty(['FRAX'], pegs, false).score).toBeCloseTo(62 - 7.4, 5);
    expect(assessDepegCounterparty(['ZZZUNKNOWN'], pegs, false).score).toBe(50);
    expect(assessDepegCounterparty(['BUIDL'], pegs, true).score).toBe(92);
  });
  it('without a stablecoins feed every coin is unknown', () => {
    expect(assessDepegCounterparty(['USDC'], null, false)).toMatchObject({ score: 50, concerns: ['stablecoin prices unavailable'] });
  });
});
