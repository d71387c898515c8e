import express, { type Router } from 'express';
import type { ClientResolver } from './client-resolver.ts';
import { authenticateClient } from './client-authentication.ts';
import { OAuthError } from './oauth-error.ts';
import type { OAuthService } from './oauth-service.ts';

/** POST /oauth/revoke (RFC 7009 §2): 200 for every authenticated request naming a token. */
export function revokeRouter(deps: { clients: ClientResolver; oauth: OAuthService }): Router {
  const router = express.Router();
  router.post('/oauth/revoke', express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const token = (req.body as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || !token) throw new OAuthError('invalid_request', 'The token parameter is required');
    const client = await authenticateClient(req, deps.clients);
    await deps.oauth.revokeToken(client, token);
    res.status(200).end();
  });
  return router;
}
