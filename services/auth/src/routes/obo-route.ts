import express, { type Router } from 'express';
import { jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import type { GatehouseClaims } from '../../../../shared/auth/session.ts';
import type { AccountService } from '../account-service.ts';
import { AccountError } from '../domain/account-errors.ts';
import { parseBody } from './parse-body.ts';

const OboBody = z.strictObject({ subject_token: z.string().min(1).max(8192), audience: z.string().url() });

/**
 * On-behalf-of tokens between services (DESIGN §6): a service holding a caller's session token
 * trades it for a token minted for one callee, so the caller's bearer never leaves the host that
 * received it. An OBO token cannot itself be traded again (no delegation chains).
 */
export function oboRouter(deps: { accountService: AccountService; jwks: JWTVerifyGetKey; issuer: string }): Router {
  const router = express.Router();
  router.post('/auth/obo', express.json({ limit: '16kb' }), async (req, res) => {
    const { subject_token, audience } = parseBody(OboBody, req);
    let claims: GatehouseClaims;
    try {
      claims = (await jwtVerify(subject_token, deps.jwks, { issuer: deps.issuer, algorithms: ['ES256'] })).payload as unknown as GatehouseClaims;
    } catch {
      throw new AccountError('unauthorized', 'The subject token is invalid or expired');
    }
    if (claims.token_use === 'obo') throw new AccountError('unauthorized', 'An on-behalf-of token cannot be exchanged again');
    const actor = Array.isArray(claims.aud) ? claims.aud[0]! : claims.aud;
    const subjectKind = claims.session_kind === 'service' ? 'connector' : claims.session_kind;
    res.set('Cache-Control', 'no-store').json(
      await deps.accountService.mintOboToken({ userId: claims.sub, audience, subjectKind, chainId: claims.chain_id ?? null, actor }),
    );
  });
  return router;
}
