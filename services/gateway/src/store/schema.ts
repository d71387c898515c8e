import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, pgView, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The gateway's tables (DESIGN §6). Every table is prefixed `gw_`. See `store/README.md` for
 * what each holds; no caller bearer or upstream secret is ever stored — an external upstream's
 * credential is referenced by the *name* of an environment variable.
 */

/** One registered upstream MCP server. */
export const gwUpstreams = pgTable(
  'gw_upstreams',
  {
    name: text('name').primaryKey(),
    url: text('url').notNull(),
    prefix: text('prefix').notNull(),
    categories: text('categories').array().notNull(),
    tier: text('tier').notNull().default('standard'),
    costMicroUsdc: bigint('cost_micro_usdc', { mode: 'number' }).notNull().default(5000),
    timeoutMs: integer('timeout_ms').notNull().default(30000),
    maxConcurrent: integer('max_concurrent').notNull().default(32),
    /** `{ "<upstream tool name>": seconds, "*": seconds }`; only read-only tools are ever cached. */
    cacheTtls: jsonb('cache_ttls').$type<Record<string, number>>().notNull().default({}),
    /** `{kind: 'obo'} | {kind: 'none'} | {kind: 'bearer', env: 'VAR_NAME'}`. */
    auth: jsonb('auth').$type<UpstreamAuth>().notNull(),
    /** Upstream tool-name globs (`propose_*`) whose stateful calls need no gateway approval. */
    autoApprove: text('auto_approve').array().notNull().default(sql`'{}'::text[]`),
    source: text('source').notNull().default('cli'),
    discoveredAt: timestamp('discovered_at', { withTimezone: true }),
    /** Set by `registry refresh`; any gateway replica re-discovers the upstream and clears it. */
    refreshRequestedAt: timestamp('refresh_requested_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gw_upstreams_prefix_key').on(t.prefix),
    check('gw_upstreams_prefix_check', sql`${t.prefix} ~ '^[a-z][a-z0-9]{0,11}$'`),
    check('gw_upstreams_timeout_check', sql`${t.timeoutMs} between 100 and 600000`),
    check('gw_upstreams_cost_check', sql`${t.costMicroUsdc} >= 0`),
  ],
);

export type UpstreamAuth = { kind: 'obo' } | { kind: 'none' } | { kind: 'bearer'; env: string };

/**
 * One discovered tool. `definition_sha256` is the pinned hash of the full definition (name,
 * description, schemas, annotations). A different definition seen later is stored as `pending_*`
 * and the tool becomes `quarantined` until an admin approves it (tool-poisoning / rug-pull attack).
 */
export const gwTools = pgTable(
  'gw_tools',
  {
    upstream: text('upstream')
      .notNull()
      .references(() => gwUpstreams.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    advertisedName: text('advertised_name').notNull(),
    definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
    definitionSha256: text('definition_sha256').notNull(),
    pendingDefinition: jsonb('pending_definition').$type<Record<string, unknown>>(),
    pendingSha256: text('pending_sha256'),
    status: text('status').notNull().default('active'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.upstream, t.name] }),
    uniqueIndex('gw_tools_advertised_name_key').on(t.advertisedName),
    check('gw_tools_status_check', sql`${t.status} in ('active', 'quarantined', 'removed')`),
  ],
);

/**
 * Receipts of routed calls. `receipt_hash` covers every field of the receipt body plus
 * `prev_hash`, the caller's previous receipt; the unique index on (subject, prev_hash) keeps each
 * caller's chain linear even with several replicas writing at once. `signature` is a compact
 * ES256 JWS over the hash.
 *
 * The call's metering (`cost_micro_usdc`, `cached`) lives in the same row, outside the signed
 * body: one routed call is one row, written by one single-table INSERT on the hot path, and a
 * receipt can never exist without its usage line or the other way round. `gw_usage` reads it.
 */
export const gwReceipts = pgTable(
  'gw_receipts',
  {
    id: uuid('id').primaryKey(),
    subject: text('subject').notNull(),
    taskId: text('task_id'),
    upstream: text('upstream').notNull(),
    tool: text('tool').notNull(),
    observedAt: timestamp('observed_at', { withTimezone: true, mode: 'string' }).notNull(),
    cacheAgeMs: integer('cache_age_ms').notNull(),
    inputSha256: text('input_sha256').notNull(),
    resultSha256: text('result_sha256').notNull(),
    runtimeState: text('runtime_state').notNull(),
    prevHash: text('prev_hash').notNull(),
    receiptHash: text('receipt_hash').notNull(),
    signature: text('signature').notNull(),
    costMicroUsdc: bigint('cost_micro_usdc', { mode: 'number' }).notNull().default(0),
    cached: boolean('cached').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('gw_receipts_chain_key').on(t.subject, t.prevHash), index('gw_receipts_subject_idx').on(t.subject, t.createdAt)],
);

/** Metering: one line per routed call (cached calls cost nothing and say so) — a view of the receipts. */
export const gwUsage = pgView('gw_usage').as((qb) =>
  qb
    .select({
      receiptId: sql<string>`${gwReceipts.id}`.as('receipt_id'),
      subject: gwReceipts.subject,
      upstream: gwReceipts.upstream,
      tool: gwReceipts.tool,
      costMicroUsdc: gwReceipts.costMicroUsdc,
      cached: gwReceipts.cached,
      createdAt: gwReceipts.createdAt,
    })
    .from(gwReceipts),
);

/**
 * Stored stateful calls awaiting the account holder. Bound to tool, the pinned definition hash,
 * the argument hash, the caller and the expiry; `executing`/`executed` make execution once-only.
 */
export const gwApprovals = pgTable(
  'gw_approvals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    taskId: text('task_id'),
    upstream: text('upstream').notNull(),
    upstreamTool: text('upstream_tool').notNull(),
    tool: text('tool').notNull(),
    definitionSha256: text('definition_sha256').notNull(),
    arguments: jsonb('arguments').$type<Record<string, unknown>>().notNull(),
    argumentsSha256: text('arguments_sha256').notNull(),
    status: text('status').notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    executedAt: timestamp('executed_at', { withTimezone: true }),
    receiptId: uuid('receipt_id'),
  },
  (t) => [
    index('gw_approvals_subject_idx').on(t.subject, t.status),
    check('gw_approvals_status_check', sql`${t.status} in ('pending', 'approved', 'rejected', 'executing', 'executed')`),
  ],
);

/** A task (caller + task id) that saw a suspicious result: its later stateful calls need fresh approval. */
export const gwTaints = pgTable(
  'gw_taints',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subject: text('subject').notNull(),
    taskId: text('task_id').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gw_taints_subject_task_idx').on(t.subject, t.taskId, t.createdAt)],
);

/** What a caller may see and call: categories and tiers. Absent row → the configured default. */
export const gwAccessPolicies = pgTable('gw_access_policies', {
  subject: text('subject').primaryKey(),
  categories: text('categories').array().notNull(),
  tiers: text('tiers').array().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The receipt-signing key pair (ES256). Shared by every replica so any of them can verify. */
export const gwSigningKeys = pgTable('gw_signing_keys', {
  kid: text('kid').primaryKey(),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
