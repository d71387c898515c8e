/**
 * Errors of the account domain, each carrying the wire code seed 001 gives it. Routes never
 * choose statuses; `accountErrorToWire` maps these once.
 */
export type AccountErrorCode =
  | 'invalid_credentials'
  | 'live_connector_opt_in_required'
  | 'live_verification_required'
  | 'personal_session_required'
  | 'unauthorized'
  | 'not_found'
  | 'invalid_api_key'
  | 'invalid_target'
  | 'invalid_request';

export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
