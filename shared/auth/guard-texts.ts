/**
 * The two texts of seed 001, verbatim. One bearer gets one text on every server because every
 * server runs the same checks in the same order: the audience first, the session kind last.
 */
export const NOT_CONNECTOR_TEXT =
  'This session is not a connector credential: mint a connector API key (POST /auth/api-key/generate {"kind": "connector"}) or connect via OAuth';

export function wrongAudienceText(resource: string): string {
  return `Token was not issued for this resource (${resource}); connect through this server's OAuth flow`;
}

/** Raw connector/personal keys carry this prefix (seed 001's wire format). */
export const API_KEY_PREFIX = 'yf_api_';
