import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { GatehouseClaims } from '../../../../shared/auth/session.ts';
import type { SigningKey } from '../store/signing-key-store.ts';

export type MintClaims = Omit<GatehouseClaims, 'iss' | 'exp' | 'iat' | 'jti'> & Record<string, unknown>;

export interface TokenMinter {
  /** Signs `claims` as an ES256 JWT valid for `ttlSeconds`. Returns the token and its `exp`. */
  mint(claims: MintClaims, ttlSeconds: number): Promise<{ token: string; exp: number; jti: string }>;
}

export function createTokenMinter(options: { issuer: string; signingKey: SigningKey; now?: () => number }): TokenMinter {
  const { issuer, signingKey } = options;
  const now = options.now ?? Date.now;
  return {
    async mint(claims, ttlSeconds) {
      const iat = Math.floor(now() / 1000);
      const exp = iat + ttlSeconds;
      const jti = randomUUID();
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ: claims.token_use === 'access' ? 'at+jwt' : 'JWT' })
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .setJti(jti)
        .sign(signingKey.privateKey);
      return { token, exp, jti };
    },
  };
}
