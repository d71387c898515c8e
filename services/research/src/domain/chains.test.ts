import { describe, expect, it } from 'vitest';
import { chainKeyOfPool, estimateBridgeCostUsd, parseChainKey, resolveSourceChainKey } from './chains.ts';

describe('chain scope', () => {
  it('maps DefiLlama chain names in scope, nothing else', () => {
    expect(['Ethereum', 'Base', 'Arbitrum', 'Optimism', 'Solana'].map(chainKeyOfPool)).toEqual(['ethereum', 'base', 'arbitrum', null, null]);
  });
  it.each(['', '  ', 'solana', 'optimism', 'eth'])('chains entry %j is not a supported key', (v) => {
    expect(parseChainKey(v)).toBeNull();
  });
});

describe('resolveSourceChainKey (aliases)', () => {
  it.each([
    ['eth', 'ethereum'],
    ['ETH', 'ethereum'],
    ['Ethereum', 'ethereum'],
    ['arb', 'arbitrum'],
    ['ARB', 'arbitrum'],
    ['Arbitrum', 'arbitrum'],
    ['BASE', 'base'],
    ['base', 'base'],
  ] as const)('%s ⇒ %s', (alias, key) => expect(resolveSourceChainKey(alias)).toBe(key));
  it.each(['', ' ', 'optimism', 'mainnet', 'sol'])('%j is rejected', (v) => expect(resolveSourceChainKey(v)).toBeNull());
});

describe('estimateBridgeCostUsd', () => {
  it('is zero on the same chain and dearer through mainnet than between L2s', () => {
    expect(estimateBridgeCostUsd('base', 'base', 10_000)).toBe(0);
    expect(estimateBridgeCostUsd('base', 'arbitrum', 10_000)).toBe(12);
    expect(estimateBridgeCostUsd('ethereum', 'base', 10_000)).toBe(20);
  });
});
