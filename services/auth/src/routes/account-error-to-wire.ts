import type { ErrorRequestHandler } from 'express';
import { AccountError } from '../domain/account-errors.ts';

const STATUS: Record<AccountError['code'], number> = {
  invalid_credentials: 401,
  unauthorized: 401,
  invalid_api_key: 401,
  live_connector_opt_in_required: 403,
  live_verification_required: 403,
  personal_session_required: 403,
  not_found: 404,
  invalid_target: 400,
  invalid_request: 400,
};

/**
 * The one map from account errors to the wire. Seed 001 gives two 403 bodies exactly —
 * `{"error", "code", "chain_id"}` and `live_verification_required` — so those carry a `code`
 * beside a human `error`; the OAuth-style ones keep `error` as the code.
 */
export const accountErrorToWire: ErrorRequestHandler = (err, _req, res, next) => {
  if (!(err instanceof AccountError)) return next(err);
  const status = STATUS[err.code];
  if (status === 403) {
    res.status(403).json({ error: err.message, code: err.code, ...err.extra });
    return;
  }
  if (status === 401 && err.code === 'unauthorized') res.set('WWW-Authenticate', 'Bearer error="invalid_token"');
  res.status(status).json({ error: err.code, error_description: err.message, ...err.extra });
};
