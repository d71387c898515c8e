import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { ExchangeClient } from './exchange-client.ts';
import { API_KEY_PREFIX } from './guard-texts.ts';
import type { GatehouseClaims, Session } from './session.ts';

/**
 * Why a request was not admitted. The reason (and `detail`) goes to the log; `guardFailureToWire`
 * is the one place that turns it into a status, a challenge and a body.
 */
export type GuardFailure =
  | { reason: 'missing_token' }
  | { reason: 'invalid_token'; detail: string }
  | { reason: 'wrong_audience' }
  | { reason: 'not_connector' }
  | { reason: 'live_opt_in_required'; chainId: string }
  | { reason: 'auth_unavailable'; detail: string };

export type GuardResult = { ok: true; session: Session } | { ok: false; failure: GuardFailure };

export interface GuardOptions {
  /** This server's resource URI (its public `/mcp` URL). */
  readonly resource: string;
  readonly issuer: string;
  /** The chain this server runs on; raw-key exchanges ask auth to bind to it. */
  readonly chainId: string | null;
  readonly exchangeClient: ExchangeClient;
  /** Defaults to auth's JWKS over HTTP. */
  readonly jwks?: JWTVerifyGetKey;
  readonly jwksUrl?: string;
  readonly jwksTimeoutMs?: number;
  /** Optional hook for access tokens that were revoked before they expire (OAuth grants). */
  readonly isAccessTokenRevoked?: (claims: GatehouseClaims) => Promise<boolean>;
  readonly now?: () => number;
}

export interface Guard {
  readonly resource: string;
  authenticate(credential: string | undefined): Promise<GuardResult>;
}

const fail = (failure: GuardFailure): GuardResult => ({ ok: false, failure });

/** Pulls the credential from `Authorization: Bearer …` or `X-API-Key`. Query strings are never read (RS-9). */
export function extractCredential(authorization: string | undefined, apiKeyHeader: string | undefined): string | undefined | null {
  if (authorization !== undefined) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    return match ? match[1] : null; // null: present but not a usable bearer (e.g. Basic, empty)
  }
  if (apiKeyHeader) return apiKeyHeader.trim() || null;
  return undefined;
}

function describeJoseError(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature is invalid';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'the token was not signed by a key this issuer publishes';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `the token's ${err.claim} claim is invalid`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the token uses an algorithm that is not allowed';
  return 'the token is malformed';
}

function isAuthUnreachable(err: unknown): boolean {
  // Anything other than a JOSE verdict about the token itself means we could not ask auth.
  return err instanceof joseErrors.JWKSTimeout || !(err instanceof joseErrors.JOSEError) || err instanceof joseErrors.JWKSInvalid;
}

/**
 * The resource-server guard. Checks run in seed 001's order — validity, then audience, then
 * session kind — so one bearer gets the same answer on every server.
 */
export function createGuard(options: GuardOptions): Guard {
  const { resource, issuer, chainId, exchangeClient } = options;
  const jwks =
    options.jwks ??
    createRemoteJWKSet(new URL(options.jwksUrl ?? `${issuer}/.well-known/jwks.json`), {
      timeoutDuration: options.jwksTimeoutMs ?? 3000,
      cooldownDuration: 30_000,
      cacheMaxAge: 600_000,
    });

  async function authenticateRawKey(rawKey: string): Promise<GuardResult> {
    // The exchange binds the session to this resource, so no audience check applies; what can
    // still be wrong is the key itself, live opt-in, or the session kind.
    const outcome = await exchangeClient.exchange(rawKey, chainId);
    if (!outcome.ok) {
      switch (outcome.reason) {
        case 'invalid_token':
          return fail({ reason: 'invalid_token', detail: outcome.detail });
        case 'live_opt_in_required':
          return fail({ reason: 'live_opt_in_required', chainId: outcome.chainId });
        case 'auth_unavailable':
          return fail({ reason: 'auth_unavailable', detail: outcome.detail });
      }
    }
    if (outcome.session.kind !== 'connector') return fail({ reason: 'not_connector' });
    return { ok: true, session: outcome.session };
  }

  async function authenticateJwt(token: string): Promise<GuardResult> {
    let claims: GatehouseClaims;
    try {
      const verified = await jwtVerify(token, jwks, {
        issuer,
        algorithms: ['ES256'],
        ...(options.now ? { currentDate: new Date(options.now()) } : {}),
      });
      claims = verified.payload as unknown as GatehouseClaims;
    } catch (err) {
      if (isAuthUnreachable(err)) return fail({ reason: 'auth_unavailable', detail: (err as Error).name });
      return fail({ reason: 'invalid_token', detail: describeJoseError(err) });
    }
    // Audience: only an OAuth access token minted for exactly this resource carries it. A login
    // JWT, an on-behalf-of token, or a session exchanged at auth by hand are refused here even if
    // their aud happens to match, so a token meant for one purpose cannot be replayed as another.
    // On-behalf-of tokens minted for exactly this resource (the gateway calling our servers)
    // are admitted as the person's original session kind, so an OBO derived from a connector
    // is a connector here and one derived from anything else is refused as not-a-connector.
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const admissibleUse = claims.token_use === 'access' || claims.token_use === 'obo';
    if (!admissibleUse || !audiences.includes(resource)) return fail({ reason: 'wrong_audience' });
    if (options.isAccessTokenRevoked) {
      let revoked: boolean;
      try {
        revoked = await options.isAccessTokenRevoked(claims);
      } catch (err) {
        return fail({ reason: 'auth_unavailable', detail: (err as Error).message });
      }
      if (revoked) return fail({ reason: 'invalid_token', detail: 'the token has been revoked' });
    }
    const kind = claims.token_use === 'obo' ? (claims as { subject_kind?: string }).subject_kind : claims.session_kind;
    if (kind !== 'connector') return fail({ reason: 'not_connector' });
    return {
      ok: true,
      session: {
        subject: claims.sub,
        kind: 'connector',
        chainId: claims.chain_id ?? null,
        audience: resource,
        scopes: claims.scope ? claims.scope.split(' ') : [],
        ...(claims.client_id ? { clientId: claims.client_id } : {}),
        expiresAt: claims.exp,
        sessionToken: token,
      },
    };
  }

  return {
    resource,
    async authenticate(credential) {
      if (credential === undefined) return fail({ reason: 'missing_token' });
      if (!credential) return fail({ reason: 'invalid_token', detail: 'the Authorization header is not a Bearer token' });
      if (credential.startsWith(API_KEY_PREFIX)) return authenticateRawKey(credential);
      return authenticateJwt(credential);
    },
  };
}
