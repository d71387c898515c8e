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
