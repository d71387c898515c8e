import { describe, expect, it } from 'vitest';
import { checkRedirectUri, redirectUriMatches } from '../../services/auth/src/oauth/redirect-uri.ts';

describe('redirectUriMatches (RFC 8252 §7.3)', () => {
  it.each([
    ['exact https', 'https://claude.ai/api/mcp/auth_callback', 'https://claude.ai/api/mcp/auth_callback', true],
    ['loopback: any port for a registration without one', 'http://localhost:61234/callback', 'http://localhost/callback', true],
    ['loopback: 127.0.0.1 any port', 'http://127.0.0.1:1/callback', 'http://127.0.0.1/callback', true],
    ['loopback: localhost↔127.0.0.1 not interchangeable', 'http://127.0.0.1:5/callback', 'http://localhost/callback', false],
    ['loopback: path must match', 'http://localhost:5/other', 'http://localhost/callback', false],
    ['loopback: scheme must match', 'https://localhost:5/callback', 'http://localhost/callback', false],
    ['non-loopback: the port is not relaxed', 'https://claude.ai:444/api/mcp/auth_callback', 'https://claude.ai/api/mcp/auth_callback', false],
    ['an extra query', 'https://claude.ai/api/mcp/auth_callback?a=1', 'https://claude.ai/api/mcp/auth_callback', false],
    ['a look-alike host', 'https://claude.ai.evil/api/mcp/auth_callback', 'https://claude.ai/api/mcp/auth_callback', false],
  ])('%s', (_name, requested, registered, expected) => {
    expect(redirectUriMatches(requested, registered)).toBe(expected);
  });
});

describe('checkRedirectUri (registration rules, RFC 9700 §4.1)', () => {
  it.each(['https://claude.ai/api/mcp/auth_callback', 'http://localhost/callback', 'http://127.0.0.1:3000/cb', 'http://[::1]/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback'])('accepts %s', (uri) => {
    expect(checkRedirectUri(uri).ok).toBe(true);
  });
  it.each([
    ['javascript:alert(1)', 'dangerous_scheme'],
    ['JAVASCRIPT:alert(1)', 'dangerous_scheme'],
    ['data:text/html,x', 'dangerous_scheme'],
    ['vbscript:x', 'dangerous_scheme'],
    ['http://example.com/cb', 'insecure_http'],
    ['https://example.com/cb#f', 'fragment'],
    ['https://u:p@example.com/cb', 'userinfo'],
    [' https://example.com/cb', 'control_characters'],
    ['https://example.com/\tcb', 'control_characters'],
    ['https:\\\\example.com', 'control_characters'],
    ['nope', 'unparseable'],
  ])('refuses %s (%s)', (uri, reason) => {
    expect(checkRedirectUri(uri)).toEqual({ ok: false, reason });
  });
});
