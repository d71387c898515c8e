import express, { type Router } from 'express';
import { z } from 'zod';
import type { AccountService } from '../account-service.ts';
import { requireDirectPersonal, type Caller } from './authenticate-caller.ts';
import { parseBody } from './parse-body.ts';

const PutBody = z.strictObject({ enabled: z.boolean() });

/**
 * GET is open to any self-scoped session, a connector included, so an agent can learn why a
 * live mint was refused; PUT only from a direct personal session, so no agent can opt a person
 * in to live money.
 */
export function liveConnectorRouter(deps: { accountService: AccountService; authenticateCaller: (req: express.Request) => Promise<Caller> }): Router {
  const router = express.Router();
  router.get('/auth/users/me/live-connectors', async (req, res) => {
    const caller = await deps.authenticateCaller(req);
    res.json(await deps.accountService.getLiveConnectors(caller.userId));
  });
  router.put('/auth/users/me/live-connectors', express.json({ limit: '4kb' }), async (req, res) => {
    const caller = await deps.authenticateCaller(req);
    requireDirectPersonal(caller);
    const { enabled } = parseBody(PutBody, req);
    res.json(await deps.accountService.setLiveConnectors(caller.userId, enabled));
  });
  return router;
}
