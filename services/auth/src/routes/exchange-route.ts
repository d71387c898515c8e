import express, { type Router } from 'express';
import { z } from 'zod';
import { API_KEY_PREFIX } from '../../../../shared/auth/guard-texts.ts';
import type { AccountService } from '../account-service.ts';
import { parseBody } from './parse-body.ts';

const ExchangeBody = z.strictObject({
  api_key: z.string().startsWith(API_KEY_PREFIX).max(200),
  resource: z.string().url(),
  chain_id: z.string().regex(/^\d+$/).nullable().default(null),
});

/**
 * The raw-key exchange MCP servers use: key + the server's resource + its chain → a short-lived
 * session bound to that resource. The key itself is the credential; the session it yields is
 * only good for the one resource named, so a server cannot be handed a session for another.
 */
export function exchangeRouter(deps: { accountService: AccountService }): Router {
  const router = express.Router();
  router.post('/auth/api-key/exchange', express.json({ limit: '4kb' }), async (req, res) => {
    const body = parseBody(ExchangeBody, req);
    res.set('Cache-Control', 'no-store').json(await deps.accountService.exchangeApiKey(body.api_key, body.resource, body.chain_id));
  });
  return router;
}
