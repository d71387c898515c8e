import express, { type Request, type Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Config } from '../../../../shared/config.ts';
import { authenticateClient, claimedClientId } from './client-authentication.ts';
import { looksLikeClientIdUrl } from './client-metadata-document.ts';
import type { ClientResolver } from './client-resolver.ts';
import { OAuthError } from './oauth-error.ts';
import type { OAuthService } from './oauth-service.ts';

function formParam(req: Request, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `The ${name} parameter must appear once`);
  return value;
}

function required(req: Request, name: string): string {
  const value = formParam(req, name);
  if (!value) throw new OAuthError('invalid_request', `The ${name} parameter is required`);
  return value;
}

export function rateLimited(windowSeconds: number, what: string) {
  return () => {
    throw new OAuthError('rate_limited', `Too many ${what}; retry later`, { retryAfterSeconds: windowSeconds });
  };
}

/**
 * Per-address and per-client limits for the token endpoint. claude.ai's users share egress
 * addresses and one metadata-document client_id, so neither key alone may be tight: the address
 * limit is generous, the client limit applies only to dynamically registered clients (one per
 * installation), and the per-account limit (in the service) is what stops one person's runaway
 * client. See docs/oauth.md for the settings.
 */
export function tokenRateLimiters(config: Config) {
  const { windowSeconds, tokenPerAddress, tokenPerClient } = config.oauth.rateLimit;
  const windowMs = windowSeconds * 1000;
  return [
    rateLimit({ windowMs, limit: tokenPerAddress, standardHeaders: 'draft-7', legacyHeaders: false, handler: rateLimited(windowSeconds, 'token requests from this address') }),
    rateLimit({
      windowMs,
      limit: tokenPerClient,
      standardHeaders: false,
      legacyHeaders: false,
      skip: (req) => {
        const id = claimedClientId(req);
        return id === undefined || looksLikeClientIdUrl(id);
      },
      keyGenerator: (req) => `client:${claimedClientId(req)}`,
      handler: rateLimited(windowSeconds, 'token requests for this client'),
    }),
  ];
}

/** POST /oauth/token (RFC 6749 §3.2): the authorization_code and refresh_token grants. */
export function tokenRouter(deps: { config: Config; clients: ClientResolver; oauth: OAuthService }): Router {
  const { config, clients, oauth } = deps;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  router.post('/oauth/token', form, ...tokenRateLimiters(config), async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    if (!req.is('application/x-www-form-urlencoded')) throw new OAuthError('invalid_request', 'The token request must be application/x-www-form-urlencoded');
    const grantType = required(req, 'grant_type');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw new OAuthError('unsupported_grant_type', 'Only authorization_code and refresh_token are supported');
    }
    const client = await authenticateClient(req, clients);
    if (!client.grantTypes.includes(grantType)) throw new OAuthError('unauthorized_client', `This client is not registered for ${grantType}`);
    const tokens =
      grantType === 'authorization_code'
        ? await oauth.exchangeAuthorizationCode(client, {
            code: required(req, 'code'),
            redirectUri: formParam(req, 'redirect_uri'),
            codeVerifier: formParam(req, 'code_verifier'),
            resource: formParam(req, 'resource'),
          })
        : await oauth.exchangeRefreshToken(client, {
            refreshToken: required(req, 'refresh_token'),
            scope: formParam(req, 'scope'),
            resource: formParam(req, 'resource'),
          });
    res.status(200).json(tokens);
  });
  return router;
}
