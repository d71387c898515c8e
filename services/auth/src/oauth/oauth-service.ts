import { jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../../../shared/config.ts';
import type { Db } from '../../../../shared/db/client.ts';
import type { AccountService } from '../account-service.ts';
import type { TokenMinter } from '../domain/token-minter.ts';
import { findConsentRequest, insertConsentRequest, purgeExpiredConsentRequests, takeConsentRequest, type ConsentRequest } from '../store/oauth-consent-store.ts';
import {
  consumeCode,
  findAccessToken,
  findCode,
  findGrantForUser,
  findRefreshToken,
  insertAccessToken,
  insertGrantWithCode,
  insertRefreshToken,
  listActiveGrants,
  markGrantUsed,
  purgeExpiredGrants,
  revokeAccessToken,
  revokeGrant,
  rotateRefreshToken,
  type Grant,
} from '../store/oauth-grant-store.ts';
import { authorizationResponseUrl } from './authorization-response.ts';
import type { OAuthClient } from './client-resolver.ts';
import { FixedWindowLimiter } from './fixed-window-limiter.ts';
import { OAuthError } from './oauth-error.ts';
import { generateOpaqueToken, hashOpaqueToken } from './opaque-token.ts';
import { verifyPkce } from './pkce.ts';
import { listProtectedResources, OFFLINE_ACCESS, resolveResource, type ProtectedResource } from './resource-indicator.ts';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

export interface ConsentView extends ConsentRequest {
  readonly protectedResource: ProtectedResource;
}

/** Why a consent decision could not be made; the page answers 400 for each. */
export class ConsentError extends Error {
  constructor(readonly reason: 'unknown_or_expired_request') {
    super('This authorization request is unknown, expired or already answered');
  }
}

const invalidGrant = (reason: string) => new OAuthError('invalid_grant', 'The authorization grant is invalid, expired or revoked', { reason });

/**
 * The authorization server's domain: consent requests, grants, codes and tokens. Routes parse
 * the wire and call this; the store is reached only through here.
 */
export function createOAuthService(deps: {
  config: Config;
  db: Db;
  minter: TokenMinter;
  accountService: AccountService;
  jwks: JWTVerifyGetKey;
  now?: () => number;
}) {
  const { config, db, minter, accountService, jwks } = deps;
  const oauth = config.oauth;
  const now = deps.now ?? Date.now;
  const resources = listProtectedResources(config);
  // Expired rows are swept opportunistically, at most every ten minutes, when a flow starts.
  const PURGE_INTERVAL_MS = 10 * 60 * 1000;
  let lastPurgeMs = 0;
  const accountLimiter = new FixedWindowLimiter(oauth.rateLimit.tokenPerAccount, oauth.rateLimit.windowSeconds * 1000, now);

  function limitAccount(userId: string): void {
    const wait = accountLimiter.hit(userId);
    if (wait) throw new OAuthError('rate_limited', 'Too many token requests for this account; retry later', { retryAfterSeconds: wait, reason: 'per_account' });
  }

  async function liveOptInMissing(userId: string, resource: ProtectedResource): Promise<boolean> {
    if (!resource.live) return false;
    const user = await accountService.findUserById(userId);
    return !user?.liveConnectorsEnabled;
  }

  /** One access token (and, by policy, one refresh token) for a grant. */
  async function issueTokens(grant: Grant, client: OAuthClient, scopes: readonly string[], refresh: { scopes: readonly string[] } | null): Promise<TokenResponse> {
    const resourceScopes = scopes.filter((s) => s !== OFFLINE_ACCESS);
    const ttl = oauth.accessTokenTtlSeconds;
    const { token, jti, exp } = await minter.mint(
      {
        sub: grant.userId,
        aud: grant.resource,
        session_kind: 'connector',
        token_use: 'access',
        chain_id: grant.chainId,
        scope: resourceScopes.join(' '),
        client_id: grant.clientId,
      },
      ttl,
    );
    await insertAccessToken(db, { jtiHash: hashOpaqueToken(jti), grantId: grant.id, expiresAt: new Date(exp * 1000) });
    const response: TokenResponse = { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') };
    // Policy: a refresh token goes to every client registered for the refresh_token grant,
    // whether or not it asked for offline_access (Claude Code does not; claude.ai does).
    if (refresh && client.grantTypes.includes('refresh_token')) {
      const refreshToken = generateOpaqueToken('ghr_');
      const expiresAt = new Date(Math.min(now() + oauth.refreshTokenTtlSeconds * 1000, grant.expiresAt.getTime()));
      await insertRefreshToken(db, { tokenHash: hashOpaqueToken(refreshToken), grantId: grant.id, scopes: refresh.scopes, expiresAt });
      response.refresh_token = refreshToken;
    }
    return response;
  }

  /** RFC 8707 §2 at the token endpoint: the resource, if sent, must be the grant's. */
  function checkTokenResource(requested: string | undefined, bound: string): void {
    if (requested === undefined) return;
    const resolved = resolveResource(resources, requested);
    if (!resolved || resolved.resource !== bound) {
      throw new OAuthError('invalid_target', 'The resource is not the one this grant was made for', { reason: resolved ? 'resource_mismatch' : 'unknown_resource' });
    }
  }

  const service = {
    resources,

    /** Stores a validated authorization request; the returned id is the consent page's handle. */
    async createConsentRequest(request: Omit<ConsentRequest, 'expiresAt'>): Promise<string> {
      if (now() - lastPurgeMs > PURGE_INTERVAL_MS) {
        lastPurgeMs = now();
        await service.purgeExpired();
      }
      const id = generateOpaqueToken();
      await insertConsentRequest(db, hashOpaqueToken(id), { ...request, expiresAt: new Date(now() + oauth.consentTtlSeconds * 1000) });
      return id;
    },

    async describeConsentRequest(id: string): Promise<ConsentView> {
      const request = await findConsentRequest(db, hashOpaqueToken(id), new Date(now()));
      const protectedResource = request && resolveResource(resources, request.resource);
      if (!request || !protectedResource) throw new ConsentError('unknown_or_expired_request');
      return { ...request, protectedResource };
    },

    /**
     * Approve or Deny. The request is taken (deleted) first, so a double submit or a replayed
     * form cannot answer it twice. Returns where to send the browser.
     */
    async decideConsent(id: string, userId: string, approve: boolean): Promise<string> {
      const request = await takeConsentRequest(db, hashOpaqueToken(id), new Date(now()));
      const resource = request && resolveResource(resources, request.resource);
      if (!request || !resource) throw new ConsentError('unknown_or_expired_request');
      const respond = (params: Record<string, string | null>) => authorizationResponseUrl(request.redirectUri, config.issuer, { ...params, state: request.state });
      if (!approve) return respond({ error: 'access_denied', error_description: 'The account holder denied the request' });
      if (await liveOptInMissing(userId, resource)) {
        return respond({ error: 'invalid_target', error_description: 'Live money is off for this account: enable it in the web app first' });
      }
      const code = generateOpaqueToken('ghac_');
      await insertGrantWithCode(
        db,
        {
          userId,
          clientId: request.clientId,
          clientName: request.clientName,
          redirectUri: request.redirectUri,
          resource: resource.resource,
          chainId: resource.chainId,
          scopes: request.scopes,
          expiresAt: new Date(now() + oauth.grantMaxLifetimeSeconds * 1000),
        },
        {
          codeHash: hashOpaqueToken(code),
          codeChallenge: request.codeChallenge,
          codeChallengeMethod: request.codeChallengeMethod,
          expiresAt: new Date(now() + oauth.codeTtlSeconds * 1000),
        },
      );
      return respond({ code });
    },

    /**
     * RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.6) and RFC 8707. Every check runs before the code is
     * consumed, so a request that fails (wrong redirect_uri, wrong resource, wrong verifier)
     * leaves the code usable by the legitimate client. A code presented twice revokes the grant
     * and every token the first redemption issued (RFC 6749 §4.1.2).
     */
    async exchangeAuthorizationCode(
      client: OAuthClient,
      input: { code: string; redirectUri: string | undefined; codeVerifier: string | undefined; resource: string | undefined },
    ): Promise<TokenResponse> {
      const codeHash = hashOpaqueToken(input.code);
      const found = await findCode(db, codeHash);
      if (!found) throw invalidGrant('unknown_code');
      const { code, grant } = found;
      if (code.clientId !== client.clientId) throw invalidGrant('code_issued_to_another_client');
      if (code.consumedAt) {
        await revokeGrant(db, grant.id, 'code_replay', new Date(now()));
        throw invalidGrant('code_replay');
      }
      if (code.expiresAt.getTime() <= now()) throw invalidGrant('code_expired');
      if (grant.revokedAt) throw invalidGrant('grant_revoked');
      if (input.redirectUri === undefined) throw new OAuthError('invalid_request', 'redirect_uri is required');
      if (input.redirectUri !== code.redirectUri) throw invalidGrant('redirect_uri_mismatch');
      checkTokenResource(input.resource, code.resource);
      const pkce = verifyPkce({ challenge: code.codeChallenge, method: code.codeChallengeMethod }, input.codeVerifier);
      if (!pkce.ok) throw invalidGrant(pkce.reason);
      const resource = resolveResource(resources, grant.resource);
      if (!resource) throw invalidGrant('resource_no_longer_served');
      if (await liveOptInMissing(grant.userId, resource)) {
        throw new OAuthError('invalid_target', 'Live money is off for this account: enable it in the web app first', { reason: 'live_opt_in_required' });
      }
      limitAccount(grant.userId);
      if (!(await consumeCode(db, codeHash, new Date(now())))) {
        await revokeGrant(db, grant.id, 'code_replay', new Date(now()));
        throw invalidGrant('code_replay_race');
      }
      await markGrantUsed(db, grant.id, new Date(now()), true);
      return issueTokens(grant, client, code.scopes, { scopes: code.scopes });
    },

    /**
     * RFC 6749 §6 with rotation (OAuth 2.1 §4.3.1): each refresh token works once. Presenting one
     * that was already rotated means two parties hold it — one of them stole it — so the whole
     * grant is revoked, and the legitimate client re-authorizes (strict reuse detection, AS-15).
     */
    async exchangeRefreshToken(client: OAuthClient, input: { refreshToken: string; scope: string | undefined; resource: string | undefined }): Promise<TokenResponse> {
      const tokenHash = hashOpaqueToken(input.refreshToken);
      const found = await findRefreshToken(db, tokenHash);
      if (!found) throw invalidGrant('unknown_refresh_token');
      const { token, grant } = found;
      if (grant.clientId !== client.clientId) throw invalidGrant('refresh_token_of_another_client');
      if (token.revokedAt || grant.revokedAt) throw invalidGrant('revoked');
      if (token.rotatedAt) {
        await revokeGrant(db, grant.id, 'refresh_token_reuse', new Date(now()));
        throw invalidGrant('refresh_token_reuse');
      }
      if (token.expiresAt.getTime() <= now() || grant.expiresAt.getTime() <= now()) throw invalidGrant('refresh_token_expired');
      checkTokenResource(input.resource, grant.resource);
      const requested = input.scope === undefined ? [...token.scopes] : [...new Set(input.scope.split(' ').filter(Boolean))];
      // RFC 6749 §6: the scope may shrink but never grow beyond what was granted.
      if (requested.length === 0 || requested.some((s) => !token.scopes.includes(s))) {
        throw new OAuthError('invalid_scope', 'The requested scope exceeds the scope of the grant');
      }
      const resource = resolveResource(resources, grant.resource);
      if (!resource) throw invalidGrant('resource_no_longer_served');
      if (await liveOptInMissing(grant.userId, resource)) {
        throw new OAuthError('invalid_target', 'Live money is off for this account: enable it in the web app first', { reason: 'live_opt_in_required' });
      }
      limitAccount(grant.userId);
      if (!(await rotateRefreshToken(db, tokenHash, new Date(now())))) {
        await revokeGrant(db, grant.id, 'refresh_token_reuse', new Date(now()));
        throw invalidGrant('refresh_token_reuse_race');
      }
      await markGrantUsed(db, grant.id, new Date(now()), false);
      return issueTokens(grant, client, requested, { scopes: token.scopes });
    },

    /**
     * RFC 7009 §2.1. A refresh token revokes its whole grant; an access token only itself (its
     * refresh token keeps working, AS-24). A token of another client, or no token we know, is
     * answered 200 and left alone (§2.2), so the endpoint does not reveal which tokens exist.
     */
    async revokeToken(client: OAuthClient, token: string): Promise<void> {
      const refresh = await findRefreshToken(db, hashOpaqueToken(token));
      if (refresh) {
        if (refresh.grant.clientId === client.clientId) await revokeGrant(db, refresh.grant.id, 'revoked_by_client', new Date(now()));
        return;
      }
      let jti: string | undefined;
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer: config.issuer, algorithms: ['ES256'] });
        if (payload.token_use === 'access') jti = payload.jti;
      } catch {
        return;
      }
      if (!jti) return;
      const access = await findAccessToken(db, hashOpaqueToken(jti));
      if (access && access.grant.clientId === client.clientId) await revokeAccessToken(db, hashOpaqueToken(jti), new Date(now()));
    },

    /** For resource servers: an access token is usable only while its row and grant are live. */
    async isAccessTokenRevoked(jti: string): Promise<boolean> {
      const access = await findAccessToken(db, hashOpaqueToken(jti));
      return !access || access.revokedAt !== null || access.grant.revokedAt !== null;
    },

    listConnectedApps: (userId: string) => listActiveGrants(db, userId, new Date(now())),

    /** "Connected apps" → Revoke: only the person's own grant; anything else is not found. */
    async revokeConnectedApp(userId: string, grantId: string): Promise<boolean> {
      if (!/^[0-9a-f-]{36}$/i.test(grantId)) return false;
      const grant = await findGrantForUser(db, userId, grantId);
      if (!grant || grant.revokedAt) return false;
      await revokeGrant(db, grant.id, 'revoked_by_user', new Date(now()));
      return true;
    },

    async purgeExpired() {
      const at = new Date(now());
      return { consentRequests: await purgeExpiredConsentRequests(db, at), ...(await purgeExpiredGrants(db, at)) };
    },
  };
  return service;
}

export type OAuthService = ReturnType<typeof createOAuthService>;
