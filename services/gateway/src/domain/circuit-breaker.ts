/**
 * A per-upstream circuit breaker, pure: the caller passes `nowMs` in. After `failureThreshold`
 * consecutive failures the circuit opens (`failing`) and calls are refused without touching the
 * upstream for `openMs`; then one probe is let through (half-open). A single recent failure or
 * timeout shows as `degraded` so search results warn before the circuit opens.
 */
export type UpstreamHealth = 'ok' | 'degraded' | 'failing';

export interface BreakerState {
  consecutiveFailures: number;
  openedAtMs: number | null;
  lastFailureAtMs: number | null;
  probeInFlight: boolean;
}

export interface BreakerOptions {
  readonly failureThreshold: number;
  readonly openMs: number;
  /** How long after a failure the upstream still reads as `degraded`. */
  readonly degradedWindowMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { failureThreshold: 5, openMs: 30_000, degradedWindowMs: 60_000 };

export function newBreakerState(): BreakerState {
  return { consecutiveFailures: 0, openedAtMs: null, lastFailureAtMs: null, probeInFlight: false };
}

export function breakerHealth(state: BreakerState, nowMs: number, options: BreakerOptions = DEFAULT_BREAKER): UpstreamHealth {
  if (state.openedAtMs !== null && nowMs - state.openedAtMs < options.openMs) return 'failing';
  if (state.consecutiveFailures > 0) return state.openedAtMs !== null ? 'failing' : 'degraded';
  if (state.lastFailureAtMs !== null && nowMs - state.lastFailureAtMs < options.degradedWindowMs) return 'degraded';
  return 'ok';
}

/** Whether a call may go to the upstream now; marks the half-open probe when it does. */
export function breakerAdmits(state: BreakerState, nowMs: number, options: BreakerOptions = DEFAULT_BREAKER): boolean {
  if (state.openedAtMs === null) return true;
  if (nowMs - state.openedAtMs < options.openMs) return false;
  if (state.probeInFlight) return false;
  state.probeInFlight = true;
  return true;
}

export function recordSuccess(state: BreakerState): void {
  state.consecutiveFailures = 0;
  state.openedAtMs = null;
  state.probeInFlight = false;
}

export function recordFailure(state: BreakerState, nowMs: number, options: BreakerOptions = DEFAULT_BREAKER): void {
  state.consecutiveFailures += 1;
  state.lastFailureAtMs = nowMs;
  state.probeInFlight = false;
  if (state.consecutiveFailures >= options.failureThreshold || state.openedAtMs !== null) state.openedAtMs = nowMs;
}
