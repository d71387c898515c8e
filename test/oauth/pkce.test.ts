import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isS256CodeChallenge, verifyPkce } from '../../services/auth/src/oauth/pkce.ts';

const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const challenge = createHash('sha256').update(verifier).digest('base64url');

describe('verifyPkce (RFC 7636 §4.6)', () => {
  it('accepts the RFC 7636 Appendix B pair', () => {
    expect(challenge).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifyPkce({ challenge, method: 'S256' }, verifier)).toEqual({ ok: true });
  });
  it.each([
    ['a wrong verifier', { challenge, method: 'S256' }, 'x'.repeat(43), 'verifier_mismatch'],
    ['a missing verifier', { challenge, method: 'S256' }, undefined, 'verifier_missing'],
    ['a verifier without a stored challenge (downgrade)', { challenge: null, method: null }, verifier, 'verifier_without_challenge'],
    ['a verifier under 43 characters', { challenge, method: 'S256' }, 'short', 'verifier_malformed'],
    ['a verifier over 128 characters', { challenge, method: 'S256' }, 'a'.repeat(129), 'verifier_malformed'],
    ['a verifier outside the unreserved set', { challenge, method: 'S256' }, `${verifier.slice(0, 42)}+`, 'verifier_malformed'],
    ['a plain challenge stored', { challenge: verifier, method: 'plain' }, verifier, 'verifier_malformed'],
  ] as const)('refuses %s', (_name, stored, presented, reason) => {
    expect(verifyPkce(stored, presented)).toEqual({ ok: false, reason });
  });
  it('recognises S256-shaped challenges only', () => {
    expect(isS256CodeChallenge(challenge)).toBe(true);
    expect(isS256CodeChallenge(verifier + 'x')).toBe(false);
    expect(isS256CodeChallenge('plain-text-challenge')).toBe(false);
  });
});
