import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43–128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url of a SHA-256: exactly 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function isS256CodeChallenge(value: string): boolean {
  return S256_CHALLENGE.test(value);
}

export type PkceFailure = 'verifier_missing' | 'verifier_malformed' | 'verifier_without_challenge' | 'verifier_mismatch';

/**
 * RFC 7636 §4.6 with S256 only. A verifier presented for a code that was issued without a
 * challenge is refused too: accepting it would let an attacker who injects a stolen, unbound
 * code pass as a PKCE client (the downgrade attack, OAuth 2.1 §7.5.1).
 */
export function verifyPkce(stored: { challenge: string | null; method: string | null }, verifier: string | undefined): { ok: true } | { ok: false; reason: PkceFailure } {
  if (stored.challenge === null) return { ok: false, reason: verifier === undefined ? 'verifier_missing' : 'verifier_without_challenge' };
  if (verifier === undefined) return { ok: false, reason: 'verifier_missing' };
  if (!VERIFIER.test(verifier) || stored.method !== 'S256') return { ok: false, reason: 'verifier_malformed' };
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(stored.challenge);
  const same = computed.length === expected.length && timingSafeEqual(computed, expected);
  return same ? { ok: true } : { ok: false, reason: 'verifier_mismatch' };
}
