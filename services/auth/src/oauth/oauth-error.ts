import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../../../../shared/log.ts';

/** The error codes of RFC 6749 §4.1.2.1/§5.2, RFC 7591 §3.2.2, RFC 8707 §2 and RFC 7009 §2.2.1. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'
  | 'temporarily_unavailable'
  | 'server_error'
  | 'rate_limited';

/**
 * A protocol error the client is meant to see. Handlers throw these; `oauthErrorToWire` alone
 * picks the status. `description` is generic on purpose: never a token, a secret, or an upstream
 * body. The detailed reason (if any) goes to the log as `reason`.
 */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly options: { reason?: string; status?: number; basicChallenge?: boolean; retryAfterSeconds?: number } = {},
  ) {
    super(description);
  }
}

function statusOf(err: OAuthError): number {
  if (err.options.status) return err.options.status;
  switch (err.code) {
    case 'invalid_client':
      // RFC 6749 §5.2: 401 with a challenge when the client tried HTTP Basic.
      return err.options.basicChallenge ? 401 : 400;
    case 'rate_limited':
      return 429;
    case 'temporarily_unavailable':
      return 503;
    case 'server_error':
      return 500;
    default:
      return 400;
  }
}

/** The one map from a thrown `OAuthError` to JSON on the wire (token, register, revoke). */
export function oauthErrorToWire(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
  if (!(err instanceof OAuthError)) return next(err);
  const status = statusOf(err);
  res.set('Cache-Control', 'no-store');
  if (status === 401 && err.options.basicChallenge) res.set('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
  if (err.options.retryAfterSeconds) res.set('Retry-After', String(err.options.retryAfterSeconds));
  logger.info({ path: req.path, code: err.code, reason: err.options.reason }, 'oauth request refused');
  res.status(status).json({ error: err.code, error_description: err.description });
  };
}
