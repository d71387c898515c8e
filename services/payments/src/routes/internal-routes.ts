import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { OboClaims, OboVerification } from '../../../../shared/auth/verify-obo-token.ts';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import { formatUnits } from '../domain/amount.ts';
import { OPEN_STATUSES } from '../domain/intent-states.ts';
import { activateChainAccount, findEntity, findWallet, membershipRole, walletBalances } from '../store/directory-store.ts';
import { findIntentForParty, listIntentsForUser } from '../store/intent-store.ts';
import { fundWallet, FaucetRefused } from '../store/faucet.ts';
import { intentDocument } from '../tools/intent-document.ts';
import { CONNECTOR_READ_ONLY, decisionToWire } from './decision-to-wire.ts';

export interface InternalRoutesDeps {
  readonly handle: DbHandle;
  readonly chainId: string;
  readonly appUrl: string;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly verifyOboToken: (token: string) => Promise<OboVerification>;
}

const CLAIMS = Symbol('payments.obo');
const claimsOf = (req: Request) => (req as unknown as Record<symbol, OboClaims>)[CLAIMS];

const Params = z.object({ workspace_id: z.uuid(), intent_id: z.uuid() });

/**
 * Routes other Gatehouse services call on a person's behalf, with an on-behalf-of token minted
 * by auth for exactly this payments resource (the bearer never leaves the host that received
 * it). Reads accept any OBO; every write demands `subject_kind: personal`, so a token derived
 * from a connector — an agent — can never confirm, fund or activate anything.
 */
export function internalRouter(deps: InternalRoutesDeps): Router {
  const router = express.Router();
  const db = deps.handle.db;

  router.use('/internal', async (req, res, next) => {
    const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    const verified = match ? await deps.verifyOboToken(match[1]!) : ({ ok: false, reason: 'invalid' } as const);
    if (!verified.ok) {
      if (verified.reason === 'unavailable') {
        res.status(503).set('Retry-After', '5').json({ error: 'auth is unavailable', code: 'obo_unavailable' });
        return;
      }
      res.status(401).json({ error: 'An on-behalf-of token minted for this payments host is required', code: 'obo_refused' });
      return;
    }
    // Write-shaped routes are refused to agents before any handler runs; no message id is minted.
    if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method) && verified.claims.subject_kind !== 'personal') {
      res.status(CONNECTOR_READ_ONLY.status).json(CONNECTOR_READ_ONLY.body);
      return;
    }
    (req as unknown as Record<symbol, OboClaims>)[CLAIMS] = verified.claims;
    next();
  });

  router.get('/internal/intents/:workspace_id/:intent_id', async (req, res) => {
    const params = Params.safeParse(req.params);
    const row = params.success ? await findIntentForParty(db, params.data.workspace_id, params.data.intent_id, claimsOf(req).sub) : undefined;
    if (!row || row.chainId !== deps.chainId) {
      res.status(404).json({ error: 'No such intent', code: 'not_found' });
      return;
    }
    res.set('Cache-Control', 'no-store').json(intentDocument(row, deps.appUrl));
  });

  router.get('/internal/intents', async (req, res) => {
    const q = z.object({ filter: z.enum(['open', 'all']).default('all'), limit: z.coerce.number().int().min(1).max(100).default(50) }).safeParse(req.query);
    if (!q.success) {
      res.status(400).json({ error: 'filter must be open|all, limit 1..100', code: 'invalid_params' });
      return;
    }
    const rows = await listIntentsForUser(db, claimsOf(req).sub, {
      chainId: deps.chainId,
      ...(q.data.filter === 'open' ? { statuses: OPEN_STATUSES } : {}),
      limit: q.data.limit,
    });
    res.set('Cache-Control', 'no-store').json({ intents: rows.map((r) => intentDocument(r, deps.appUrl)) });
  });

  const decide = (decision: 'approve' | 'reject') => async (req: Request, res: Response) => {
    const params = Params.safeParse(req.params);
    if (!params.success) {
      res.status(404).json({ error: 'No such intent', code: 'not_found' });
      return;
    }
    const answer = await decisionToWire(deps, { userId: claimsOf(req).sub, workspaceId: params.data.workspace_id, intentId: params.data.intent_id, decision });
    res.status(answer.status).json(answer.body);
  };
  router.post('/internal/intents/:workspace_id/:intent_id/confirm', decide('approve'));
  router.post('/internal/intents/:workspace_id/:intent_id/reject', decide('reject'));

  router.get('/internal/wallet', async (req, res) => {
    const wallet = await findWallet(db, claimsOf(req).sub, deps.chainId);
    const balances = wallet ? await walletBalances(db, wallet.id) : [];
    res.set('Cache-Control', 'no-store').json({
      chain_id: deps.chainId,
      wallet: wallet ? { wallet_id: wallet.id, address: wallet.address, balances: balances.map((b) => ({ asset_id: b.assetId, symbol: b.symbol, kind: b.kind, amount: formatUnits(b.units, b.decimals) })) } : null,
    });
  });

  router.post('/internal/wallet/fund', express.json({ limit: '4kb' }), async (req, res) => {
    const body = z.object({ asset: z.string().min(1).max(100), amount: z.string().max(64) }).safeParse(req.body);
    if (!body.success) {
      res.status(400).json({ error: 'asset and amount (a decimal string) are required', code: 'invalid_params' });
      return;
    }
    try {
      res.json(await fundWallet(db, { userId: claimsOf(req).sub, chainId: deps.chainId, asset: body.data.asset, amount: body.data.amount }));
    } catch (err) {
      if (err instanceof FaucetRefused) {
        res.status(err.status).json({ error: err.message, code: err.code });
        return;
      }
      throw err;
    }
  });

  router.post('/internal/entities/:kind/:id/chain-accounts/activation', express.json({ limit: '4kb' }), async (req, res) => {
    const params = z.object({ kind: z.enum(['user', 'group']), id: z.uuid() }).safeParse(req.params);
    const claims = claimsOf(req);
    if (!params.success) {
      res.status(404).json({ error: 'No such entity', code: 'not_found' });
      return;
    }
    const { kind, id } = params.data;
    // You activate yourself, or a group you own or administer — never someone else.
    if (kind === 'user' && id !== claims.sub) {
      res.status(403).json({ error: 'You can only activate your own chain account', code: 'forbidden' });
      return;
    }
    if (kind === 'group') {
      const entity = await findEntity(db, id);
      const role = entity?.kind === 'group' ? await membershipRole(db, id, claims.sub) : undefined;
      if (!role) {
        res.status(404).json({ error: 'No such group', code: 'not_found' });
        return;
      }
      if (role === 'member') {
        res.status(403).json({ error: 'Only a group owner or admin can activate its chain account', code: 'forbidden' });
        return;
      }
    }
    const display = z.object({ display_name: z.string().min(1).max(200).optional() }).safeParse(req.body ?? {});
    const { wallet, created } = await activateChainAccount(db, {
      entityKind: kind,
      entityId: id,
      chainId: deps.chainId,
      displayName: (display.success && display.data.display_name) || id,
      createdBy: claims.sub,
    });
    res.status(created ? 201 : 200).json({
      entity: { kind, id },
      chain_id: deps.chainId,
      status: 'ready',
      wallet: { wallet_id: wallet.id, address: wallet.address },
      created,
    });
  });

  return router;
}
