import { describe, expect, it } from 'vitest';
import { normalizeCategory } from './category.ts';

const base = { project: 'x', symbol: 'USDC', poolMeta: null, override: undefined };

describe('normalizeCategory (lending | rwa | other)', () => {
  it.each([
    ['Lending', 'lending'],
    ['CDP', 'lending'],
    ['RWA', 'rwa'],
    ['RWA Lending', 'rwa'],
    ['Dexs', 'other'],
    ['Insurance', 'other'],
    ['Uncollateralized Lending', 'other'],
    [null, 'other'],
  ] as const)('%s ⇒ %s', (raw, expected) => {
    expect(normalizeCategory({ ...base, categoryRaw: raw })).toBe(expected);
  });

  it('Maple syrup USD* wrappers are rwa whatever the upstream label', () => {
    expect(normalizeCategory({ ...base, project: 'maple', poolMeta: 'Syrup USDC', categoryRaw: 'Lending' })).toBe('rwa');
    expect(normalizeCategory({ ...base, project: 'maple', symbol: 'SYRUPUSDG', categoryRaw: 'Uncollateralized Lending' })).toBe('rwa');
    expect(normalizeCategory({ ...base, project: 'maple', poolMeta: 'Blue chip secured', categoryRaw: 'Lending' })).toBe('lending');
  });

  it('a curated override wins over the upstream label', () => {
    expect(normalizeCategory({ ...base, categoryRaw: 'Yield', override: 'rwa' })).toBe('rwa');
  });
});
