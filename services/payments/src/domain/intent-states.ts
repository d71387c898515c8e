/**
 * The intent state machine (seed 001 "Propose → confirm → settle"). The database trigger in
 * migrations/payments/0001 is the enforcement; this module is the same table for code and docs.
 */
export const INTENT_STATUSES = ['proposed', 'approved', 'submitting', 'submitted', 'completed', 'failed', 'cancelled', 'expired'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export const INTENT_KINDS = ['send', 'accept', 'swap_credit_for_cash', 'complete_swap'] as const;
export type IntentKind = (typeof INTENT_KINDS)[number];

/** Open: the identity index holds it, so the same proposal returns it instead of filing another. */
export const OPEN_STATUSES: readonly IntentStatus[] = ['proposed', 'approved', 'submitting', 'submitted'];
export const SETTLED_STATUSES: readonly IntentStatus[] = ['completed', 'failed'];

const TRANSITIONS: Record<IntentStatus, readonly IntentStatus[]> = {
  proposed: ['approved', 'cancelled', 'expired'],
  approved: ['submitting'],
  submitting: ['submitted'],
  submitted: ['completed', 'failed'],
  completed: [],
  failed: [],
  cancelled: [],
  expired: [],
};

export function canTransition(from: IntentStatus, to: IntentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Lifetime of a proposal: a confirmation page left open overnight must not move money tomorrow. */
export const INTENT_TTL_MS = 15 * 60 * 1000;
