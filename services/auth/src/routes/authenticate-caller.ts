import type { Request } from 'express';
import { jwtVerify, type JWTVerifyGetKey } from 'jose';
import { API_KEY_PREFIX } from '../../../../shared/auth/guard-texts.ts';
import type { GatehouseClaims } from '../../../../shared/auth/session.ts';
import type { AccountService } from '../account-service.ts';
import { AccountError } from '../domain/account-errors.ts';

/**
 * Who is calling auth's REST API. `direct` is true only for a personal login session (a login
 * JWT): that is what minting keys and enabling live money require (seed 001: "from a direct
 * personal session"). A connector — key or token — is self-scoped but never direct.
 */
export interface Caller {
  readonly userId: string;
  readonly kind: 'personal' | 'connector';
  readonly direct: boolean;
}

export function createCallerAuthenticator(deps: { accountService: AccountService; jwks: JWTVerifyGetKey; issuer: string }) {
  const { accountService, jwks, issuer } = deps;
  return async function authenticateCaller(req: Request): Promise<Caller> {
    const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    if (!match) throw new AccountError('unauthorized', 'A Bearer token is required');
    const credential = match[1]!;
    if (credential.startsWith(API_KEY_PREFIX)) {
      const key = await accountService.resolveApiKey(credential);
      return { userId: key.userId, kind: key.kind, direct: false };
    }
    let claims: GatehouseClaims;
    try {
      claims = (await jwtVerify(credential, jwks, { issuer, algorithms: ['ES256'] })).payload as unknown as GatehouseClaims;
    } catch {
      throw new AccountError('unauthorized', 'The token is invalid or expired');
    }
    if (claims.token_use === 'login' && claims.session_kind === 'personal') return { userId: claims.sub, kind: 'personal', direct: true };
    if ((claims.token_use === 'exchange' || claims.token_use === 'access') && claims.session_kind === 'connector') {
      return { userId: claims.sub, kind: 'connector', direct: false };
    }
    throw new AccountError('unauthorized', 'This token cannot be used with the auth API');
  };
}

export function requireDirectPersonal(caller: Caller): void {
  if (!caller.direct) {
    throw new AccountError('personal_session_required', 'This action needs a direct personal session (sign in with email and password)');
  }
}
