import { describe, expect, it } from 'vitest';
import { apyBreakdown } from './reward-share.ts';

describe('apyBreakdown (seed "Reward share")', () => {
  it.each([
    ['reward / total when total is meaningful', 3, 1, 4, 0.25],
    ['base-only with reward null is organic (0)', 4.1, null, 4.1, 0],
    ['both ~0 ⇒ 0', 0, 0, 0, 0],
    ['zero APY with null reward ⇒ 0', 0, null, 0, 0],
    ['positive reward on ~0 gross ⇒ null, never an invented 0', null, 3, 0, null],
    ['no base and no reward beside a positive total ⇒ unknown', null, null, 7.5, null],
    ['reward-only pool ⇒ 1', null, 2, 2, 1],
  ] as const)('%s', (_name, base, reward, total, share) => {
    const b = apyBreakdown(base, reward, total);
    expect(b.rewardShare).toBe(share);
    expect(b).toMatchObject({ base, reward, total });
  });

  it('always exposes base, reward, total and rewardShare keys', () => {
    expect(Object.keys(apyBreakdown(null, null, null)).sort()).toEqual(['base', 'reward', 'rewardShare', 'total']);
  });
});
