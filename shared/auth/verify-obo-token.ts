import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { GatehouseClaims, SessionKind } from './session.ts';

export interface OboClaims extends GatehouseClaims {
  token_use: 'obo';
  /** What the person held when the token was minted: only `personal` may confirm money movements. */
  subject_kind: SessionKind;
  act: { sub: string };
}

export type OboVerification = { ok: true; claims: OboClaims } | { ok: false; reason: 'invalid' | 'wrong_audience' | 'unavailable' };

/**
 * Verifies an on-behalf-of token presented to a service's internal routes: signed by auth,
 * `token_use: obo`, minted for exactly this service's resource.
 */
export function createOboVerifier(options: { issuer: string; resource: string; jwksUrl?: string; jwks?: JWTVerifyGetKey; timeoutMs?: number }) {
  const jwks =
    options.jwks ?? createRemoteJWKSet(new URL(options.jwksUrl ?? `${options.issuer}/.well-known/jwks.json`), { timeoutDuration: options.timeoutMs ?? 3000 });
  return async function verifyOboToken(token: string): Promise<OboVerification> {
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: options.issuer, algorithms: ['ES256'] });
      const claims = payload as unknown as OboClaims;
      if (claims.token_use !== 'obo') return { ok: false, reason: 'invalid' };
      const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (!aud.includes(options.resource)) return { ok: false, reason: 'wrong_audience' };
      return { ok: true, claims };
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'JWKSTimeout' || name === 'TypeError') return { ok: false, reason: 'unavailable' };
      return { ok: false, reason: 'invalid' };
    }
  };
}
