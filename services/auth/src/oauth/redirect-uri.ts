// The SDK's matcher implements RFC 8252 §7.3 exactly: exact match, except that a loopback
// redirect may differ in port; `localhost` and `127.0.0.1` never match each other.
export { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export type RedirectUriProblem = 'unparseable' | 'dangerous_scheme' | 'insecure_http' | 'fragment' | 'userinfo' | 'control_characters';

/**
 * What a client may register (RFC 9700 §4.1, OAuth 2.1 §2.3.1, RFC 8252 §7): https anywhere,
 * http only on loopback, private-use schemes for native apps; never a fragment or userinfo, and
 * never a scheme a browser would execute (`javascript:`, `data:`, …). Checked on the raw string
 * as well as the parsed URL, because WHATWG parsing strips leading whitespace and control
 * characters that another parser might keep.
 */
export function checkRedirectUri(raw: string): { ok: true; uri: string } | { ok: false; reason: RedirectUriProblem } {
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(raw)) return { ok: false, reason: 'control_characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (['javascript', 'data', 'vbscript', 'file', 'blob', 'about', 'ws', 'wss', 'ftp'].includes(scheme)) return { ok: false, reason: 'dangerous_scheme' };
  if (url.hash || raw.includes('#')) return { ok: false, reason: 'fragment' };
  if (url.username || url.password) return { ok: false, reason: 'userinfo' };
  if (scheme === 'http' && !LOOPBACK_HOSTS.has(url.hostname)) return { ok: false, reason: 'insecure_http' };
  // Anything else is a native app's private-use scheme (RFC 8252 §7.1).
  if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) return { ok: false, reason: 'dangerous_scheme' };
  return { ok: true, uri: raw };
}
