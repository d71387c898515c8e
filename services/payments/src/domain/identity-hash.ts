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

/**
 * A string value the database fills in (a resolved wallet id), so the hash can be computed in
 * the same statement that resolves it and files the intent (store/file-send-intent.ts).
 */
export class IdentitySlot {
  constructor(readonly name: string) {}
}

/**
 * Canonical JSON cut at its slots: the document is `parts[0] + slot value 0 + parts[1] + …`,
 * each slot's value a JSON string whose characters need no escaping (a uuid); its quotes are in
 * the parts. The slot positions come from the same walk as `canonicalJson`, never from
 * searching the text, so an agent-supplied request_id that looks like a slot cannot move one.
 */
export interface CanonicalTemplate {
  readonly parts: readonly string[];
  readonly slots: readonly string[];
}

function writeCanonical(value: unknown, out: { parts: string[]; slots: string[] }): void {
  const emit = (s: string) => (out.parts[out.parts.length - 1] += s);
  if (value instanceof IdentitySlot) {
    emit('"');
    out.slots.push(value.name);
    out.parts.push('"');
    return;
  }
  if (Array.isArray(value)) {
    emit('[');
    value.forEach((v, i) => {
      if (i > 0) emit(',');
      writeCanonical(v, out);
    });
    emit(']');
    return;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    emit('{');
    entries.forEach(([k, v], i) => {
      emit(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
      writeCanonical(v, out);
    });
    emit('}');
    return;
  }
  emit(JSON.stringify(value) ?? '');
}

export function canonicalTemplate(value: unknown): CanonicalTemplate {
  const out = { parts: [''], slots: [] as string[] };
  writeCanonical(value, out);
  return out;
}

/** JSON with object keys sorted at every depth, so equal values always serialise identically. */
export function canonicalJson(value: unknown): string {
  return canonicalTemplate(value).parts.join('');
}

function identityDocument(identity: Omit<IntentIdentity, 'walletId'> & { walletId: string | IdentitySlot }) {
  return {
    v: 1,
    kind: identity.kind,
    arguments: identity.arguments,
    actor: identity.actorUserId,
    chain: identity.chainId,
    wallet: identity.walletId,
    workspace: identity.workspaceId,
    request_id: identity.requestId,
  };
}

export function intentIdentityHash(identity: IntentIdentity): string {
  return `sha256:${createHash('sha256').update(canonicalJson(identityDocument(identity))).digest('hex')}`;
}

/**
 * The identity document with the wallet (and any argument) left as slots; filled with the same
 * values, `sha256:` + hex(sha256(parts and values joined)) equals `intentIdentityHash`.
 */
export function intentIdentityTemplate(identity: Omit<IntentIdentity, 'walletId'> & { walletId: string | IdentitySlot }): CanonicalTemplate {
  return canonicalTemplate(identityDocument(identity));
}
