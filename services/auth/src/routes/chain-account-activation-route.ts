import express, { type Request, type Router } from 'express';
import { z } from 'zod';
import { LIVE_CHAIN_ID, TEST_CHAIN_ID, type Config } from '../../../../shared/config.ts';
import type { AccountService } from '../account-service.ts';
import { AccountError } from '../domain/account-errors.ts';
import { requireDirectPersonal, type Caller } from './authenticate-caller.ts';

const Params = z.object({ kind: z.enum(['user', 'group']), id: z.uuid(), chain_id: z.enum([TEST_CHAIN_ID, LIVE_CHAIN_ID]) });

/**
 * `POST /entities/{user|group}/{id}/chain-accounts/{chain_id}/activation` (seed 001): the only
 * way a chain account comes to exist — tools never activate implicitly. It needs a direct
 * personal session (an agent holding a connector credential must not open accounts on a
 * person's behalf), then forwards to the payments host of that chain with an on-behalf-of token
 * marked `personal`; the payments host decides who may activate which entity.
 */
export function chainAccountActivationRouter(deps: { config: Config; accountService: AccountService; authenticateCaller: (req: Request) => Promise<Caller> }): Router {
  const router = express.Router();
  router.post('/entities/:kind/:id/chain-accounts/:chain_id/activation', express.json({ limit: '4kb' }), async (req, res) => {
    const caller = await deps.authenticateCaller(req);
    requireDirectPersonal(caller);
    const params = Params.safeParse(req.params);
    if (!params.success) throw new AccountError('not_found', 'Unknown entity kind, id or chain');
    const host = params.data.chain_id === TEST_CHAIN_ID ? deps.config.services['payments-test'] : deps.config.services['payments-live'];
    const { access_token } = await deps.accountService.mintOboToken({
      userId: caller.userId,
      audience: host.resource,
      subjectKind: 'personal',
      chainId: params.data.chain_id,
      actor: deps.config.issuer,
    });
    let answer: { status: number; body: unknown };
    try {
      const r = await fetch(`${host.publicUrl}/internal/entities/${params.data.kind}/${params.data.id}/chain-accounts/activation`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: typeof req.body?.display_name === 'string' ? req.body.display_name.slice(0, 200) : undefined }),
        signal: AbortSignal.timeout(deps.config.authTimeoutMs * 2),
      });
      answer = { status: r.status, body: await r.json() };
    } catch {
      answer = { status: 503, body: { error: 'The payments service is unavailable; retry', code: 'downstream_failed' } };
    }
    res.status(answer.status).set('Cache-Control', 'no-store').json(answer.body);
  });
  return router;
}
