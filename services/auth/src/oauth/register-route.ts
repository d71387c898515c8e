import express, { type Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Config } from '../../../../shared/config.ts';
import type { Db } from '../../../../shared/db/client.ts';
import { clientInformationResponse, registerClient } from './client-registration.ts';
import { OAuthError } from './oauth-error.ts';
import { rateLimited } from './token-route.ts';

/**
 * POST /oauth/register (RFC 7591). Open registration, as MCP clients expect; the only brake is a
 * per-address limit sized so that claude.ai's shared egress addresses are not locked out
 * (OAUTH_REGISTER_RATE_LIMIT_PER_ADDRESS, docs/oauth.md).
 */
export function registerRouter(deps: { config: Config; db: Db }): Router {
  const { windowSeconds, registerPerAddress } = deps.config.oauth.rateLimit;
  const router = express.Router();
  router.post(
    '/oauth/register',
    rateLimit({
      windowMs: windowSeconds * 1000,
      limit: registerPerAddress,
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      handler: rateLimited(windowSeconds, 'registrations from this address'),
    }),
    express.json({ limit: '32kb' }),
    async (req, res) => {
      res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      if (!req.is('application/json')) throw new OAuthError('invalid_client_metadata', 'The registration request must be application/json');
      const { client, clientSecret } = await registerClient(deps.db, req.body);
      res.status(201).json(clientInformationResponse(client, clientSecret));
    },
  );
  return router;
}
