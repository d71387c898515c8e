import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Account holders. Passwords are stored only as scrypt hashes. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    verificationLevel: text('verification_level').notNull().default('none'),
    liveConnectorsEnabled: boolean('live_connectors_enabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
    check('users_verification_level_check', sql`${t.verificationLevel} in ('none', 'kyc')`),
  ],
);

/** API keys: only a SHA-256 of the raw key is stored; `display_prefix` is what the list shows. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    displayPrefix: text('display_prefix').notNull(),
    kind: text('kind').notNull(),
    allowedChains: text('allowed_chains').array().notNull(),
    serviceName: text('service_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    index('api_keys_user_id_idx').on(t.userId),
    check('api_keys_kind_check', sql`${t.kind} in ('personal', 'connector')`),
    check('api_keys_chains_nonempty', sql`cardinality(${t.allowedChains}) > 0`),
  ],
);

/**
 * ES256 signing keys. The private JWK lives in the database so every replica signs with the
 * same key; at most one row is active (partial unique index), so two processes booting at once
 * cannot both install a key.
 */
export const signingKeys = pgTable(
  'signing_keys',
  {
    kid: text('kid').primaryKey(),
    privateJwk: jsonb('private_jwk').notNull(),
    publicJwk: jsonb('public_jwk').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('signing_keys_one_active').on(t.active).where(sql`${t.active}`)],
);

/** Web app sessions: the cookie holds a random id, the table holds its SHA-256 and the CSRF token. */
export const webSessions = pgTable(
  'web_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('web_sessions_user_id_idx').on(t.userId)],
);

// ─── OAuth 2.1 authorization server (issue 3) ───────────────────────────────────────────────
// Every bearer value (codes, refresh tokens, access-token identifiers, client secrets and
// consent-transaction ids) is stored only as a SHA-256; docs/oauth.md §Storage lists each table.

/**
 * Dynamically registered clients (RFC 7591). Client ID Metadata Document clients are not stored:
 * their `client_id` is the document URL, resolved on use.
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    clientId: text('client_id').primaryKey(),
    clientSecretHash: text('client_secret_hash'),
    tokenEndpointAuthMethod: text('token_endpoint_auth_method').notNull(),
    redirectUris: text('redirect_uris').array().notNull(),
    grantTypes: text('grant_types').array().notNull(),
    responseTypes: text('response_types').array().notNull(),
    clientName: text('client_name'),
    clientUri: text('client_uri'),
    logoUri: text('logo_uri'),
    scope: text('scope'),
    softwareId: text('software_id'),
    softwareVersion: text('software_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('oauth_clients_auth_method_check', sql`${t.tokenEndpointAuthMethod} in ('none', 'client_secret_basic', 'client_secret_post')`),
    check('oauth_clients_secret_iff_confidential', sql`(${t.tokenEndpointAuthMethod} = 'none') = (${t.clientSecretHash} is null)`),
  ],
);

/**
 * Authorization requests waiting for consent: validated at /oauth/authorize, shown by the
 * consent page, consumed (deleted) by Approve or Deny. Short-lived and single use.
 */
export const oauthConsentRequests = pgTable(
  'oauth_consent_requests',
  {
    idHash: text('id_hash').primaryKey(),
    clientId: text('client_id').notNull(),
    clientName: text('client_name').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    state: text('state'),
    codeChallenge: text('code_challenge').notNull(),
    codeChallengeMethod: text('code_challenge_method').notNull(),
    scopes: text('scopes').array().notNull(),
    resource: text('resource').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oauth_consent_requests_expires_idx').on(t.expiresAt)],
);

/**
 * One grant per approved consent: a person's authorization of one client for one resource. Its
 * refresh tokens form one rotation family; revoking the grant revokes every token it issued.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    clientName: text('client_name').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    resource: text('resource').notNull(),
    chainId: text('chain_id'),
    scopes: text('scopes').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the code is first exchanged; "Connected apps" lists only active grants. */
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** No refresh can extend the grant past this instant (rotation keeps it). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('oauth_grants_user_id_idx').on(t.userId), index('oauth_grants_client_id_idx').on(t.clientId)],
);

/** Authorization codes: single use; a second redemption revokes the grant (RFC 6749 §4.1.2). */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    /** Null only for a code issued without PKCE, which this server never does; kept so a downgrade is testable. */
    codeChallenge: text('code_challenge'),
    codeChallengeMethod: text('code_challenge_method'),
    resource: text('resource').notNull(),
    scopes: text('scopes').array().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('oauth_codes_expires_idx').on(t.expiresAt)],
);

/** Refresh tokens: rotated on use; presenting a rotated one revokes its grant (reuse detection). */
export const oauthRefreshTokens = pgTable(
  'oauth_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('oauth_refresh_tokens_grant_idx').on(t.grantId)],
);

/** Access tokens are JWTs; only the SHA-256 of each `jti` is kept, to revoke one before it expires. */
export const oauthAccessTokens = pgTable(
  'oauth_access_tokens',
  {
    jtiHash: text('jti_hash').primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('oauth_access_tokens_grant_idx').on(t.grantId)],
);
