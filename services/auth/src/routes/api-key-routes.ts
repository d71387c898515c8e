import express, { type Router } from 'express';
import { z } from 'zod';
import { LIVE_CHAIN_ID, TEST_CHAIN_ID } from '../../../../shared/config.ts';
import type { AccountService } from '../account-service.ts';
import { AccountError } from '../domain/account-errors.ts';
import type { ApiKeyRecord } from '../store/api-key-store.ts';
import { requireDirectPersonal, type Caller } from './authenticate-caller.ts';
import { parseBody } from './parse-body.ts';

const GenerateBody = z.strictObject({
  service_name: z.string().trim().min(1).max(100),
  kind: z.enum(['personal', 'connector']).default('personal'),
  allowed_chains: z
    .array(z.enum([TEST_CHAIN_ID, LIVE_CHAIN_ID]))
    .min(1)
    .refine((chains) => new Set(chains).size === chains.length, 'must not repeat a chain')
    .optional(),
});

/** The list view of a key: never the secret or its hash. */
export function describeApiKey(record: ApiKeyRecord) {
  return {
    id: record.id,
    kind: record.kind,
    service_name: record.serviceName,
    allowed_chains: record.allowedChains,
    display_prefix: record.displayPrefix,
    created_at: record.createdAt.toISOString(),
    revoked_at: record.revokedAt?.toISOString() ?? null,
    last_used_at: record.lastUsedAt?.toISOString() ?? null,
  };
}

export function apiKeyRouter(deps: { accountService: AccountService; authenticateCaller: (req: express.Request) => Promise<Caller> }): Router {
  const { accountService, authenticateCaller } = deps;
  const router = express.Router();
  const json = express.json({ limit: '16kb' });

  router.post('/auth/api-key/generate', json, async (req, res) => {
    const caller = await authenticateCaller(req);
    requireDirectPersonal(caller);
    const body = parseBody(GenerateBody, req);
    const user = await accountService.findUserById(caller.userId);
    if (!user) throw new AccountError('unauthorized', 'The account no longer exists');
    const { apiKey, record } = await accountService.createApiKey(user, {
      serviceName: body.service_name,
      kind: body.kind,
      ...(body.allowed_chains ? { allowedChains: body.allowed_chains } : {}),
    });
    res.status(201).set('Cache-Control', 'no-store').json({
      api_key: apiKey,
      id: record.id,
      kind: record.kind,
      allowed_chains: record.allowedChains,
      service_name: record.serviceName,
      created_at: record.createdAt.toISOString(),
    });
  });

  router.get('/auth/api-keys', async (req, res) => {
    const caller = await authenticateCaller(req);
    if (caller.kind !== 'personal') throw new AccountError('personal_session_required', 'Listing keys needs a personal session');
    res.json({ api_keys: (await accountService.listApiKeys(caller.userId)).map(describeApiKey) });
  });

  router.post('/auth/api-keys/:id/revoke', async (req, res) => {
    const caller = await authenticateCaller(req);
    requireDirectPersonal(caller);
    const id = z.uuid().safeParse(req.params.id);
    if (!id.success) throw new AccountError('not_found', 'No such API key');
    res.json(describeApiKey(await accountService.revokeApiKey(caller.userId, id.data)));
  });

  return router;
}
