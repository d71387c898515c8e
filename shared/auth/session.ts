/**
 * Session kinds (DESIGN §4): `personal` (web sign-in, login, a personal API key), `connector`
 * (a connector key exchange or an OAuth grant), `service` (on-behalf-of tokens between services).
 */
export type SessionKind = 'personal' | 'connector' | 'service';

/** What an MCP server knows about its caller once the guard has admitted the request. */
export interface Session {
  /** The account holder's user id. */
  readonly subject: string;
  readonly kind: SessionKind;
  /** The chain the session was bound to (`153` test, `151` live), or null where none applies. */
  readonly chainId: string | null;
  /** The resource URI the session is bound to (this server's `/mcp` URL). */
  readonly audience: string;
  readonly scopes: readonly string[];
  /** Set for OAuth grants. */
  readonly clientId?: string;
  /** Set for connector-key exchanges. */
  readonly keyId?: string;
  /** Epoch seconds. */
  readonly expiresAt: number;
  /** A short-lived session token minted by auth for this resource, usable for on-behalf-of calls. */
  readonly sessionToken: string;
}

/** Claims of every JWT auth signs. `token_use` separates OAuth access tokens from everything else. */
export interface GatehouseClaims {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
  jti: string;
  session_kind: SessionKind;
  /** `access` (OAuth access token), `login` (personal session), `exchange` (raw-key exchange), `obo`. */
  token_use: 'access' | 'login' | 'exchange' | 'obo';
  chain_id?: string | null;
  scope?: string;
  client_id?: string;
  key_id?: string;
}
