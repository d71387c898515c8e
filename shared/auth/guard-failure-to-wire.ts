import type { GuardFailure } from './guard.ts';
import { NOT_CONNECTOR_TEXT, wrongAudienceText } from './guard-texts.ts';

export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** RFC 9728 §5.1: the challenge names where the client finds this resource's metadata. */
export function buildWwwAuthenticateHeader(resourceMetadataUrl: string): string {
  return `Bearer resource_metadata="${resourceMetadataUrl}", error="invalid_token"`;
}

/**
 * The one place a guard failure becomes an HTTP answer. Every authentication failure is the
 * same 401 and the same challenge, so an MCP client that follows it simply re-runs OAuth; an
 * auth outage is 503 with no challenge, so clients retry instead of re-authorising. Bodies never
 * echo the credential (RS-19).
 */
export function guardFailureToWire(failure: GuardFailure, resource: string, resourceMetadataUrl: string): WireAnswer {
  const challenge = { 'WWW-Authenticate': buildWwwAuthenticateHeader(resourceMetadataUrl) };
  switch (failure.reason) {
    case 'missing_token':
      return {
        status: 401,
        headers: challenge,
        body: { error: 'Authorization required: send a connector API key or an OAuth access token as a Bearer token' },
      };
    case 'invalid_token':
      return { status: 401, headers: challenge, body: { error: `Invalid credential: ${failure.detail}` } };
    case 'wrong_audience':
      return { status: 401, headers: challenge, body: { error: wrongAudienceText(resource) } };
    case 'not_connector':
      return { status: 401, headers: challenge, body: { error: NOT_CONNECTOR_TEXT } };
    case 'live_opt_in_required':
      // Authorisation, not authentication: the credential is fine, the person has not opted in.
      return {
        status: 403,
        headers: {},
        body: {
          error: 'Live money is off for this account: the account holder must enable live connectors in the web app',
          code: 'live_connector_opt_in_required',
          chain_id: failure.chainId,
        },
      };
    case 'auth_unavailable':
      return { status: 503, headers: { 'Retry-After': '5' }, body: { error: 'The authorization service is unavailable; retry shortly' } };
  }
}
