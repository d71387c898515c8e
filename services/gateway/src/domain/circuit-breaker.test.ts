import { describe, expect, it } from 'vitest';
import { breakerAdmits, breakerHealth, newBreakerState, recordFailure, recordSuccess } from './circuit-breaker.ts';

describe('circuit breaker', () => {
  const opts = { failureThreshold: 3, openMs: 1000, degradedWindowMs: 5000 };
  it('one failure is degraded; the threshold opens the circuit (failing) and refuses calls; a probe later closes it', () => {
    const s = newBreakerState();
    recordFailure(s, 0, opts);
    expect(breakerHealth(s, 1, opts)).toBe('degraded');
    recordFailure(s, 1, opts);
    recordFailure(s, 2, opts);
    expect(breakerHealth(s, 3, opts)).toBe('failing');
    expect(breakerAdmits(s, 500, opts)).toBe(false);
    expect(breakerAdmits(s, 1500, opts)).toBe(true);
    expect(breakerAdmits(s, 1501, opts)).toBe(false);
    recordSuccess(s);
    expect(breakerAdmits(s, 1502, opts)).toBe(true);
    expect(breakerHealth(s, 10_000, opts)).toBe('ok');
  });
});
