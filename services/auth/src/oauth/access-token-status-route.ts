import express, { type Router } from 'express';
import { z } from 'zod';
import { OAuthError } from './oauth-error.ts';
import type { OAuthService } from './oauth-service.ts';

const StatusBody = z.strictObject({ jti: z.string().min(1).max(100) });

/**
 * POST /oauth/access-token-status {jti} → {revoked}. The MCP servers' guard asks this for OAuth
 * access tokens (cached briefly), so a revoked grant stops working before its tokens expire. It
 * answers only for a token identifier the caller already holds, so it reveals nothing else.
 */
export function accessTokenStatusRouter(deps: { oauth: OAuthService }): Router {
  const router = express.Router();
  router.post('/oauth/access-token-status', express.json({ limit: '1kb' }), async (req, res) => {
    const parsed = StatusBody.safeParse(req.body);
    if (!parsed.success) throw new OAuthError('invalid_request', 'Expected {"jti": "…"}');
    res.set('Cache-Control', 'no-store').json({ revoked: await deps.oauth.isAccessTokenRevoked(parsed.data.jti) });
  });
  return router;
}
