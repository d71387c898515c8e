import { createHash } from 'node:crypto';

/**
 * The identity of a proposal (seed 001: "the same proposal while one is open returns the same
 * intent"). It covers everything that changes what would happen — kind, resolved arguments,
 * actor, chain, wallet, workspace and request_id — and nothing a model rewords freely (title,
 * rationale), so a retried tool call lands on the intent already waiting for the person.
 */
export interface IntentIdentity {
  readonly kind: string;
  readonly arguments: Record<string, unknown>;
  readonly actorUserId: string;
  readonly chainId: string;
  readonly walletId: string;
  readonly workspaceId: string;
  readonly requestId: string | null;
}

/** JSON with object keys sorted at every depth, so equal values always serialise identically. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function intentIdentityHash(identity: IntentIdentity): string {
  const document = canonicalJson({
    v: 1,
    kind: identity.kind,
    arguments: identity.arguments,
    actor: identity.actorUserId,
    chain: identity.chainId,
    wallet: identity.walletId,
    workspace: identity.workspaceId,
    request_id: identity.requestId,
  });
  return `sha256:${createHash('sha256').update(document).digest('hex')}`;
}
