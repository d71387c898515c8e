import { describe, expect, it } from 'vitest';
import { selectTop } from './select-top.ts';

describe('selectTop', () => {
  it('equals a full sort truncated to m, stable for ties', () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ i, v: (i * 7919) % 101 }));
    const cmp = (a: { v: number }, b: { v: number }) => b.v - a.v;
    for (const m of [0, 1, 10, 499, 500, 600]) expect(selectTop(items, m, cmp)).toEqual([...items].sort(cmp).slice(0, m));
  });
});
