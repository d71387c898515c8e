/**
 * Builds the redirect back to the client (RFC 6749 §4.1.2, §4.1.2.1). Every response, success or
 * error, carries `iss` exactly once (RFC 9207 §2), so a client talking to several authorization
 * servers can tell which one answered (the mix-up attack). Existing query parameters of the
 * registered redirect URI are kept (RFC 6749 §3.1.2).
 */
export function authorizationResponseUrl(redirectUri: string, issuer: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined) url.searchParams.set(key, value);
  }
  url.searchParams.set('iss', issuer);
  return url.href;
}
