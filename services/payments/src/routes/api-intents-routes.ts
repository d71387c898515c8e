import express, { type Router } from 'express';
import { jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { extractCredential, type Guard } from '../../../../shared/auth/guard.ts';
import { API_KEY_PREFIX } from '../../../../shared/auth/guard-texts.ts';
import type { GatehouseClaims } from '../../../../shared/auth/session.ts';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { CONNECTOR_READ_ONLY, decisionToWire } from './decision-to-wire.ts';

type Person = { ok: true; userId: string } | { ok: false; status: number; body: Record<string, unknown> };

const UNAUTHORIZED = { ok: false as const, status: 401, body: { error: 'A direct personal session (sign in) is required', code: 'unauthorized' } };

/**
 * `POST /api/intents/{workspace_id}/{intent_id}/confirm|reject` for direct personal sessions
 * (a login token). Every write-shaped `/api` route first classifies the credential: anything a
 * connector holds — a connector key, an OAuth access token, an OBO derived from either — gets
 * the seed's 403 `connector_read_only` before a handler runs, so no decision and no message id
 * can ever come from an agent.
 */
export function apiIntentsRouter(deps: { handle: DbHandle; appUrl: string; now: () => Date; guard: Guard; jwks: JWTVerifyGetKey; issuer: string; resource: string }): Router {
  const router = express.Router();

  async function identifyPerson(authorization: string | undefined): Promise<Person> {
    const credential = extractCredential(authorization, undefined);
    if (!credential) return UNAUTHORIZED;
    if (credential.startsWith(API_KEY_PREFIX)) {
      const result = await deps.guard.authenticate(credential);
      if (result.ok) return { ok: false, ...CONNECTOR_READ_ONLY };
      // A personal key is not a *direct* session either: confirming needs a sign-in.
      return { ok: false, status: 403, body: { error: 'Confirming needs a direct personal session (sign in to the app)', code: 'personal_session_required' } };
    }
    let claims: GatehouseClaims & { subject_kind?: string };
    try {
      claims = (await jwtVerify(credential, deps.jwks, { issuer: deps.issuer, algorithms: ['ES256'] })).payload as unknown as typeof claims;
    } catch {
      return UNAUTHORIZED;
    }
    if (claims.token_use === 'login' && claims.session_kind === 'personal') return { ok: true, userId: claims.sub };
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (claims.token_use === 'obo' && audiences.includes(deps.resource) && claims.subject_kind === 'personal') return { ok: true, userId: claims.sub };
    const connectorDerived = claims.session_kind === 'connector' || (claims.token_use === 'obo' && claims.subject_kind === 'connector');
    return connectorDerived ? { ok: false, ...CONNECTOR_READ_ONLY } : UNAUTHORIZED;
  }

  router.use('/api', async (req, res, next) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(req.method)) return next();
    const person = await identifyPerson(req.headers.authorization);
    if (!person.ok) {
      res.status(person.status).json(person.body);
      return;
    }
    res.locals.personId = person.userId;
    next();
  });

  const Params = z.object({ workspace_id: z.uuid(), intent_id: z.uuid() });
  for (const [path, decision] of [
    ['confirm', 'approve'],
    ['reject', 'reject'],
  ] as const) {
    router.post(`/api/intents/:workspace_id/:intent_id/${path}`, async (req, res) => {
      const params = Params.safeParse(req.params);
      if (!params.success) {
        res.status(404).json({ error: 'No such intent', code: 'not_found' });
        return;
      }
      const answer = await decisionToWire(deps, { userId: res.locals.personId as string, workspaceId: params.data.workspace_id, intentId: params.data.intent_id, decision });
      res.status(answer.status).json(answer.body);
    });
  }
  return router;
}
