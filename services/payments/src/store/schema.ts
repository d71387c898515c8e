import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The payments domain. Every money invariant lives here as a constraint, not in app code:
 * balances cannot go negative (CHECK), an intent is open at most once per identity (partial
 * unique index), a ledger transaction applies an intent at most once (unique intent_id), and the
 * intent state machine and audit trail are enforced by triggers (migration 0001).
 * Users are auth's user ids (uuid); there is deliberately no cross-service foreign key.
 */

const units = (name: string) => numeric(name, { precision: 78, scale: 0 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const CHAINS = sql`('151', '153')`;

/** Users and groups. A user's entity id is their auth user id; it is also their personal workspace. */
export const entities = pgTable(
  'pay_entities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    displayName: text('display_name').notNull(),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [check('pay_entities_kind', sql`${t.kind} in ('user', 'group')`)],
);

/** Group (workspace) membership; a person's own entity needs no row. */
export const memberships = pgTable(
  'pay_memberships',
  {
    groupId: uuid('group_id').notNull().references(() => entities.id),
    userId: uuid('user_id').notNull(),
    role: text('role').notNull().default('member'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    index('pay_memberships_user').on(t.userId),
    check('pay_memberships_role', sql`${t.role} in ('owner', 'admin', 'member')`),
  ],
);

/** One chain account per entity and chain, created only by explicit activation. */
export const wallets = pgTable(
  'pay_wallets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entityId: uuid('entity_id').notNull().references(() => entities.id),
    chainId: text('chain_id').notNull(),
    address: text('address').notNull().unique('pay_wallets_address'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pay_wallets_entity_chain').on(t.entityId, t.chainId),
    check('pay_wallets_chain', sql`${t.chainId} in ${CHAINS}`),
    check('pay_wallets_address_shape', sql`${t.address} ~ '^0x[0-9a-f]{40}$'`),
  ],
);

/** Cash tokens and credit instruments, per chain. */
export const assets = pgTable(
  'pay_assets',
  {
    id: text('id').primaryKey(),
    chainId: text('chain_id').notNull(),
    symbol: text('symbol').notNull(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    decimals: integer('decimals').notNull(),
    description: text('description').notNull().default(''),
  },
  (t) => [
    uniqueIndex('pay_assets_chain_symbol').on(t.chainId, t.symbol),
    check('pay_assets_kind', sql`${t.kind} in ('cash', 'credit')`),
    check('pay_assets_decimals', sql`${t.decimals} between 0 and 18`),
    check('pay_assets_chain', sql`${t.chainId} in ${CHAINS}`),
  ],
);

/**
 * Ledger accounts. `wallet` and `escrow` balances can never be negative — the CHECK is the
 * guarantee, so two concurrent settlements cannot both spend the same funds. `faucet` is the
 * issuing side of the test chain and goes negative by exactly what it has issued, which is what
 * makes every asset's balances sum to zero.
 */
export const accounts = pgTable(
  'pay_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    assetId: text('asset_id').notNull().references(() => assets.id),
    walletId: uuid('wallet_id').references(() => wallets.id),
    balance: units('balance').notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [
    check('pay_accounts_kind', sql`${t.kind} in ('wallet', 'escrow', 'faucet')`),
    check('pay_accounts_non_negative', sql`${t.kind} = 'faucet' or ${t.balance} >= 0`),
    check('pay_accounts_wallet_owner', sql`(${t.kind} = 'wallet') = (${t.walletId} is not null)`),
    uniqueIndex('pay_accounts_wallet_asset').on(t.walletId, t.assetId).where(sql`${t.kind} = 'wallet'`),
    uniqueIndex('pay_accounts_system_asset').on(t.kind, t.assetId).where(sql`${t.kind} <> 'wallet'`),
  ],
);

/** A balanced set of postings. `intent_id` is unique: an intent can be applied at most once. */
export const ledgerTransactions = pgTable(
  'pay_ledger_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chainId: text('chain_id').notNull(),
    kind: text('kind').notNull(),
    intentId: uuid('intent_id').unique('pay_ledger_transactions_intent'),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [check('pay_ledger_transactions_kind', sql`${t.kind} in ('faucet', 'send', 'accept', 'swap_open', 'swap_complete')`)],
);

/** Append-only (trigger); signed amounts in base units, each transaction sums to zero. */
export const postings = pgTable(
  'pay_postings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: uuid('transaction_id').notNull().references(() => ledgerTransactions.id),
    accountId: uuid('account_id').notNull().references(() => accounts.id),
    assetId: text('asset_id').notNull().references(() => assets.id),
    amount: units('amount').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('pay_postings_account').on(t.accountId, t.id),
    index('pay_postings_transaction').on(t.transactionId),
    check('pay_postings_nonzero', sql`${t.amount} <> 0`),
  ],
);

/** A payment sits in escrow until the recipient accepts it. */
export const payments = pgTable(
  'pay_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chainId: text('chain_id').notNull(),
    assetId: text('asset_id').notNull().references(() => assets.id),
    fromWalletId: uuid('from_wallet_id').notNull().references(() => wallets.id),
    toWalletId: uuid('to_wallet_id').notNull().references(() => wallets.id),
    amount: units('amount').notNull(),
    status: text('status').notNull().default('pending'),
    sendIntentId: uuid('send_intent_id').notNull().unique('pay_payments_send_intent'),
    acceptIntentId: uuid('accept_intent_id').unique('pay_payments_accept_intent'),
    createdAt: createdAt(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [
    index('pay_payments_to').on(t.toWalletId, t.status),
    check('pay_payments_amount', sql`${t.amount} > 0`),
    check('pay_payments_status', sql`${t.status} in ('pending', 'accepted')`),
    check('pay_payments_accepted', sql`(${t.status} = 'accepted') = (${t.acceptedAt} is not null and ${t.acceptIntentId} is not null)`),
  ],
);

/** Credit-for-cash in two legs: the initiator escrows credit; the counterparty pays cash to complete. */
export const swaps = pgTable(
  'pay_swaps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chainId: text('chain_id').notNull(),
    initiatorWalletId: uuid('initiator_wallet_id').notNull().references(() => wallets.id),
    counterpartyWalletId: uuid('counterparty_wallet_id').notNull().references(() => wallets.id),
    creditAssetId: text('credit_asset_id').notNull().references(() => assets.id),
    creditAmount: units('credit_amount').notNull(),
    cashAssetId: text('cash_asset_id').notNull().references(() => assets.id),
    cashAmount: units('cash_amount').notNull(),
    status: text('status').notNull().default('open'),
    openIntentId: uuid('open_intent_id').notNull().unique('pay_swaps_open_intent'),
    completeIntentId: uuid('complete_intent_id').unique('pay_swaps_complete_intent'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('pay_swaps_counterparty').on(t.counterpartyWalletId, t.status),
    check('pay_swaps_amounts', sql`${t.creditAmount} > 0 and ${t.cashAmount} > 0`),
    check('pay_swaps_status', sql`${t.status} in ('open', 'completed')`),
  ],
);

export const contacts = pgTable(
  'pay_contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull().references(() => entities.id),
    name: text('name').notNull(),
    email: text('email'),
    walletAddress: text('wallet_address'),
    notes: text('notes').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('pay_contacts_workspace').on(t.workspaceId, t.id),
    index('pay_contacts_email').on(t.workspaceId, t.email),
    check('pay_contacts_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

export const connectionRequests = pgTable(
  'pay_connection_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fromEntityId: uuid('from_entity_id').notNull().references(() => entities.id),
    toEntityId: uuid('to_entity_id').references(() => entities.id),
    toEmail: text('to_email').notNull(),
    status: text('status').notNull().default('pending'),
    message: text('message').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('pay_connection_requests_from').on(t.fromEntityId, t.id),
    index('pay_connection_requests_to').on(t.toEntityId, t.id),
    check('pay_connection_requests_status', sql`${t.status} in ('pending', 'accepted', 'declined')`),
  ],
);

export const agreements = pgTable(
  'pay_agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull().references(() => entities.id),
    title: text('title').notNull(),
    counterpartyContactId: uuid('counterparty_contact_id').references(() => contacts.id),
    status: text('status').notNull().default('active'),
    terms: text('terms').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('pay_agreements_workspace').on(t.workspaceId, t.id),
    check('pay_agreements_status', sql`${t.status} in ('draft', 'active', 'completed', 'terminated')`),
  ],
);

export const scheduledPayments = pgTable(
  'pay_scheduled_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agreementId: uuid('agreement_id').notNull().references(() => agreements.id),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    assetId: text('asset_id').notNull().references(() => assets.id),
    amount: units('amount').notNull(),
    status: text('status').notNull().default('scheduled'),
    paymentId: uuid('payment_id').references(() => payments.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('pay_scheduled_payments_agreement').on(t.agreementId, t.dueAt),
    check('pay_scheduled_payments_amount', sql`${t.amount} > 0`),
    check('pay_scheduled_payments_status', sql`${t.status} in ('scheduled', 'paid', 'cancelled')`),
  ],
);

export const tasks = pgTable(
  'pay_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull().references(() => entities.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    status: text('status').notNull().default('todo'),
    agreementId: uuid('agreement_id').references(() => agreements.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('pay_tasks_workspace').on(t.workspaceId, t.id),
    check('pay_tasks_status', sql`${t.status} in ('todo', 'in_progress', 'blocked', 'done')`),
  ],
);

export const taskPredecessors = pgTable(
  'pay_task_predecessors',
  {
    taskId: uuid('task_id').notNull().references(() => tasks.id),
    predecessorId: uuid('predecessor_id').notNull().references(() => tasks.id),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.predecessorId] }),
    index('pay_task_predecessors_pred').on(t.predecessorId),
    check('pay_task_predecessors_not_self', sql`${t.taskId} <> ${t.predecessorId}`),
  ],
);

/**
 * Proposed money movements. The state machine and the audit trail are enforced by a trigger
 * (migration 0001), and the identity columns are immutable after filing, so what the person
 * confirmed is exactly what settles. `message_id` is set exactly from `submitted` on.
 */
export const intents = pgTable(
  'pay_intents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull().references(() => entities.id),
    chainId: text('chain_id').notNull(),
    kind: text('kind').notNull(),
    actorUserId: uuid('actor_user_id').notNull(),
    actor: jsonb('actor').notNull(),
    walletId: uuid('wallet_id').notNull().references(() => wallets.id),
    arguments: jsonb('arguments').notNull(),
    requestId: text('request_id'),
    identityHash: text('identity_hash').notNull(),
    title: text('title').notNull().default(''),
    rationale: text('rationale').notNull().default(''),
    status: text('status').notNull().default('proposed'),
    /** Who caused the latest transition; the trigger copies it into the audit row. */
    lastActor: text('last_actor').notNull(),
    messageId: text('message_id').unique('pay_intents_message_id'),
    failureReason: text('failure_reason'),
    result: jsonb('result'),
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check('pay_intents_kind', sql`${t.kind} in ('send', 'accept', 'swap_credit_for_cash', 'complete_swap')`),
    check(
      'pay_intents_status',
      sql`${t.status} in ('proposed', 'approved', 'submitting', 'submitted', 'completed', 'failed', 'cancelled', 'expired')`,
    ),
    check('pay_intents_chain', sql`${t.chainId} in ${CHAINS}`),
    check('pay_intents_message_id_from_submitted', sql`(${t.status} in ('submitted', 'completed', 'failed')) = (${t.messageId} is not null)`),
    check('pay_intents_failed_reason', sql`(${t.status} = 'failed') = (${t.failureReason} is not null)`),
    // The identity partial unique index: one open intent per identity, decided by the database
    // even when 100 identical proposals race across replicas.
    uniqueIndex('pay_intents_open_identity')
      .on(t.identityHash)
      .where(sql`${t.status} in ('proposed', 'approved', 'submitting', 'submitted')`),
    uniqueIndex('pay_intents_open_request')
      .on(t.actorUserId, t.chainId, t.workspaceId, t.requestId)
      .where(sql`${t.requestId} is not null and ${t.status} in ('proposed', 'approved', 'submitting', 'submitted')`),
    index('pay_intents_workspace').on(t.workspaceId, t.createdAt),
    index('pay_intents_actor').on(t.actorUserId, t.chainId, t.createdAt),
    index('pay_intents_work').on(t.status, t.claimedAt).where(sql`${t.status} in ('approved', 'submitting', 'submitted')`),
    index('pay_intents_expiry').on(t.expiresAt).where(sql`${t.status} = 'proposed'`),
  ],
);

/** Append-only (trigger): one row per transition, written by the transition trigger itself. */
export const intentEvents = pgTable(
  'pay_intent_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    intentId: uuid('intent_id').notNull().references(() => intents.id),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actor: text('actor').notNull(),
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pay_intent_events_intent').on(t.intentId, t.id)],
);
