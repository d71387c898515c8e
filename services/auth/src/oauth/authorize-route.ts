import express, { type Request, type Response, type Router } from 'express';
import type { Config } from '../../../../shared/config.ts';
import type { Logger } from '../../../../shared/log.ts';
import { html, layout } from '../../../app/src/html.ts';
import { authorizationResponseUrl } from './authorization-response.ts';
import type { ClientResolver, OAuthClient } from './client-resolver.ts';
import { OAuthError, type OAuthErrorCode } from './oauth-error.ts';
import type { OAuthService } from './oauth-service.ts';
import { isS256CodeChallenge } from './pkce.ts';
import { redirectUriMatches } from './redirect-uri.ts';
import { resolveRequestedScopes, resolveResource } from './resource-indicator.ts';

const PARAMS = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'scope', 'state', 'resource'] as const;
type Param = (typeof PARAMS)[number];

/** Phase-1 failures: answered here, never sent to a redirect URI we have not verified. */
class DirectError extends Error {
  constructor(readonly code: OAuthErrorCode, readonly description: string) {
    super(description);
  }
}

/** Phase-2 failures: reported to the verified redirect URI with `state` and `iss`. */
class RedirectError extends Error {
  constructor(readonly code: OAuthErrorCode, readonly description: string) {
    super(description);
  }
}

function readParams(req: Request): Partial<Record<Param, string>> {
  const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
  const out: Partial<Record<Param, string>> = {};
  for (const name of PARAMS) {
    const value = source?.[name];
    if (value === undefined) continue;
    // RFC 6749 §3.1: parameters MUST NOT be included more than once.
    if (typeof value !== 'string') throw new DirectError('invalid_request', `The ${name} parameter must appear once`);
    out[name] = value;
  }
  return out;
}

function errorPage(code: string, description: string): string {
  return layout(
    { title: 'Authorization failed' },
    html`<section><h1>This sign-in link cannot be used</h1><p>${description}</p><p class="muted">Error: <code>${code}</code>. Nothing was authorized; return to the app you came from and try connecting again.</p></section>`,
  );
}

/**
 * GET/POST /oauth/authorize (RFC 6749 §4.1.1, OAuth 2.1 §4.1.1). Two phases, as in the SDK's
 * handler: first the client and its redirect URI (any failure is a 400 page, because an error
 * must not be sent to a URI we have not matched against the registration — that would make us
 * an open redirector); then everything else, whose failures go back to the client. A valid
 * request becomes a short-lived consent request and the browser moves to the consent page.
 */
export function authorizeRouter(deps: { config: Config; clients: ClientResolver; oauth: OAuthService; logger: Logger }): Router {
  const { config, clients, oauth, logger } = deps;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  async function phaseOne(params: Partial<Record<Param, string>>): Promise<{ client: OAuthClient; redirectUri: string }> {
    if (!params.client_id) throw new DirectError('invalid_request', 'The client_id parameter is missing.');
    let client: OAuthClient;
    try {
      client = await clients.resolve(params.client_id);
    } catch (err) {
      if (err instanceof OAuthError) throw new DirectError('invalid_client', err.description);
      throw err;
    }
    const requested = params.redirect_uri;
    if (requested === undefined) {
      if (client.redirectUris.length !== 1) throw new DirectError('invalid_request', 'The redirect_uri parameter is required for this client.');
      return { client, redirectUri: client.redirectUris[0]! };
    }
    if (!client.redirectUris.some((registered) => redirectUriMatches(requested, registered))) {
      throw new DirectError('invalid_request', 'The redirect_uri is not registered for this client.');
    }
    return { client, redirectUri: requested };
  }

  async function phaseTwo(client: OAuthClient, redirectUri: string, params: Partial<Record<Param, string>>): Promise<string> {
    if (params.response_type !== 'code') throw new RedirectError('unsupported_response_type', 'Only response_type=code is supported');
    if (!client.grantTypes.includes('authorization_code')) throw new RedirectError('unauthorized_client', 'This client may not use the authorization code grant');
    // PKCE is mandatory and S256 only (OAuth 2.1 §4.1.1): an omitted method would mean `plain`.
    if (!params.code_challenge) throw new RedirectError('invalid_request', 'code_challenge is required (PKCE)');
    if (params.code_challenge_method !== 'S256') throw new RedirectError('invalid_request', 'code_challenge_method must be S256');
    if (!isS256CodeChallenge(params.code_challenge)) throw new RedirectError('invalid_request', 'code_challenge is not a valid S256 challenge');
    // Policy (AS-13): no resource, no grant — a token without an audience would be usable nowhere
    // and a default would be a guess.
    if (!params.resource) throw new RedirectError('invalid_target', 'The resource parameter (RFC 8707) is required: the MCP server URL');
    const resource = resolveResource(oauth.resources, params.resource);
    if (!resource) throw new RedirectError('invalid_target', 'The resource is not an MCP server of this deployment');
    const scopes = resolveRequestedScopes(resource, params.scope);
    if (!scopes.ok) throw new RedirectError('invalid_scope', 'The requested scope is not available for this resource');
    const id = await oauth.createConsentRequest({
      clientId: client.clientId,
      clientName: client.clientName,
      redirectUri,
      state: params.state ?? null,
      codeChallenge: params.code_challenge,
      codeChallengeMethod: 'S256',
      scopes: scopes.scopes,
      resource: resource.resource,
    });
    return `/oauth/consent?request=${encodeURIComponent(id)}`;
  }

  async function handle(req: Request, res: Response): Promise<void> {
    res.set({
      'Cache-Control': 'no-store',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'",
      'X-Content-Type-Options': 'nosniff',
    });
    const status = req.method === 'POST' ? 303 : 302;
    let params: Partial<Record<Param, string>>;
    let verified: { client: OAuthClient; redirectUri: string };
    try {
      params = readParams(req);
      verified = await phaseOne(params);
    } catch (err) {
      if (!(err instanceof DirectError)) throw err;
      logger.info({ code: err.code, description: err.description }, 'authorization request refused before redirect');
      res.status(400).type('html').send(errorPage(err.code, err.description));
      return;
    }
    try {
      res.redirect(status, await phaseTwo(verified.client, verified.redirectUri, params));
    } catch (err) {
      if (!(err instanceof RedirectError)) throw err;
      logger.info({ code: err.code, client_id: verified.client.clientId }, 'authorization request refused');
      res.redirect(status, authorizationResponseUrl(verified.redirectUri, config.issuer, { error: err.code, error_description: err.description, state: params.state }));
    }
  }

  router.get('/oauth/authorize', handle);
  router.post('/oauth/authorize', form, handle);
  return router;
}
