import type { DbHandle } from '../../../../shared/db/client.ts';
import { decideIntent } from '../store/intent-store.ts';
import { intentDocument } from '../tools/intent-document.ts';

export interface WireAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** The one map from a person's decision outcome to HTTP: expired and already-decided are 409. */
export async function decisionToWire(
  deps: { handle: DbHandle; appUrl: string; now: () => Date },
  input: { userId: string; workspaceId: string; intentId: string; decision: 'approve' | 'reject' },
): Promise<WireAnswer> {
  const outcome = await decideIntent(deps.handle.db, { ...input, now: deps.now() });
  switch (outcome.kind) {
    case 'decided':
      return { status: 200, body: { intent: intentDocument(outcome.intent, deps.appUrl) } };
    case 'not_found':
      return { status: 404, body: { error: 'No such intent for you to decide', code: 'not_found' } };
    case 'expired':
      return { status: 409, body: { error: 'This intent expired before it was decided; ask for a new proposal', code: 'intent_expired', status: 'expired' } };
    case 'already_decided':
      return {
        status: 409,
        body: { error: `This intent was already decided (it is ${outcome.intent.status}); nothing was changed`, code: 'intent_already_decided', status: outcome.intent.status },
      };
  }
}

/** Seed 001: the exact refusal a connector gets on any write-shaped payments route. */
export const CONNECTOR_READ_ONLY: WireAnswer = {
  status: 403,
  body: { error: 'FORBIDDEN: connector credentials can only propose — the account holder confirms in the app', code: 'connector_read_only' },
};
