CREATE TABLE "pay_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"asset_id" text NOT NULL,
	"wallet_id" uuid,
	"balance" numeric(78, 0) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_accounts_kind" CHECK ("pay_accounts"."kind" in ('wallet', 'escrow', 'faucet')),
	CONSTRAINT "pay_accounts_non_negative" CHECK ("pay_accounts"."kind" = 'faucet' or "pay_accounts"."balance" >= 0),
	CONSTRAINT "pay_accounts_wallet_owner" CHECK (("pay_accounts"."kind" = 'wallet') = ("pay_accounts"."wallet_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "pay_agreements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"title" text NOT NULL,
	"counterparty_contact_id" uuid,
	"status" text DEFAULT 'active' NOT NULL,
	"terms" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_agreements_status" CHECK ("pay_agreements"."status" in ('draft', 'active', 'completed', 'terminated'))
);
--> statement-breakpoint
CREATE TABLE "pay_assets" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" text NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"decimals" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "pay_assets_kind" CHECK ("pay_assets"."kind" in ('cash', 'credit')),
	CONSTRAINT "pay_assets_decimals" CHECK ("pay_assets"."decimals" between 0 and 18),
	CONSTRAINT "pay_assets_chain" CHECK ("pay_assets"."chain_id" in ('151', '153'))
);
--> statement-breakpoint
CREATE TABLE "pay_connection_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"from_entity_id" uuid NOT NULL,
	"to_entity_id" uuid,
	"to_email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_connection_requests_status" CHECK ("pay_connection_requests"."status" in ('pending', 'accepted', 'declined'))
);
--> statement-breakpoint
CREATE TABLE "pay_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"wallet_address" text,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_contacts_email_lower" CHECK ("pay_contacts"."email" = lower("pay_contacts"."email"))
);
--> statement-breakpoint
CREATE TABLE "pay_entities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"display_name" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_entities_kind" CHECK ("pay_entities"."kind" in ('user', 'group'))
);
--> statement-breakpoint
CREATE TABLE "pay_intent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"intent_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_intents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"chain_id" text NOT NULL,
	"kind" text NOT NULL,
	"actor_user_id" uuid NOT NULL,
	"actor" jsonb NOT NULL,
	"wallet_id" uuid NOT NULL,
	"arguments" jsonb NOT NULL,
	"request_id" text,
	"identity_hash" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"rationale" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"last_actor" text NOT NULL,
	"message_id" text,
	"failure_reason" text,
	"result" jsonb,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"settled_at" timestamp with time zone,
	CONSTRAINT "pay_intents_message_id" UNIQUE("message_id"),
	CONSTRAINT "pay_intents_kind" CHECK ("pay_intents"."kind" in ('send', 'accept', 'swap_credit_for_cash', 'complete_swap')),
	CONSTRAINT "pay_intents_status" CHECK ("pay_intents"."status" in ('proposed', 'approved', 'submitting', 'submitted', 'completed', 'failed', 'cancelled', 'expired')),
	CONSTRAINT "pay_intents_chain" CHECK ("pay_intents"."chain_id" in ('151', '153')),
	CONSTRAINT "pay_intents_message_id_from_submitted" CHECK (("pay_intents"."status" in ('submitted', 'completed', 'failed')) = ("pay_intents"."message_id" is not null)),
	CONSTRAINT "pay_intents_failed_reason" CHECK (("pay_intents"."status" = 'failed') = ("pay_intents"."failure_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "pay_ledger_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" text NOT NULL,
	"kind" text NOT NULL,
	"intent_id" uuid,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_ledger_transactions_intent" UNIQUE("intent_id"),
	CONSTRAINT "pay_ledger_transactions_kind" CHECK ("pay_ledger_transactions"."kind" in ('faucet', 'send', 'accept', 'swap_open', 'swap_complete'))
);
--> statement-breakpoint
CREATE TABLE "pay_memberships" (
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_memberships_group_id_user_id_pk" PRIMARY KEY("group_id","user_id"),
	CONSTRAINT "pay_memberships_role" CHECK ("pay_memberships"."role" in ('owner', 'admin', 'member'))
);
--> statement-breakpoint
CREATE TABLE "pay_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" text NOT NULL,
	"asset_id" text NOT NULL,
	"from_wallet_id" uuid NOT NULL,
	"to_wallet_id" uuid NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"send_intent_id" uuid NOT NULL,
	"accept_intent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	CONSTRAINT "pay_payments_send_intent" UNIQUE("send_intent_id"),
	CONSTRAINT "pay_payments_accept_intent" UNIQUE("accept_intent_id"),
	CONSTRAINT "pay_payments_amount" CHECK ("pay_payments"."amount" > 0),
	CONSTRAINT "pay_payments_status" CHECK ("pay_payments"."status" in ('pending', 'accepted')),
	CONSTRAINT "pay_payments_accepted" CHECK (("pay_payments"."status" = 'accepted') = ("pay_payments"."accepted_at" is not null and "pay_payments"."accept_intent_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "pay_postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"asset_id" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_postings_nonzero" CHECK ("pay_postings"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "pay_scheduled_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agreement_id" uuid NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"asset_id" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_scheduled_payments_amount" CHECK ("pay_scheduled_payments"."amount" > 0),
	CONSTRAINT "pay_scheduled_payments_status" CHECK ("pay_scheduled_payments"."status" in ('scheduled', 'paid', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "pay_swaps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" text NOT NULL,
	"initiator_wallet_id" uuid NOT NULL,
	"counterparty_wallet_id" uuid NOT NULL,
	"credit_asset_id" text NOT NULL,
	"credit_amount" numeric(78, 0) NOT NULL,
	"cash_asset_id" text NOT NULL,
	"cash_amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"open_intent_id" uuid NOT NULL,
	"complete_intent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "pay_swaps_open_intent" UNIQUE("open_intent_id"),
	CONSTRAINT "pay_swaps_complete_intent" UNIQUE("complete_intent_id"),
	CONSTRAINT "pay_swaps_amounts" CHECK ("pay_swaps"."credit_amount" > 0 and "pay_swaps"."cash_amount" > 0),
	CONSTRAINT "pay_swaps_status" CHECK ("pay_swaps"."status" in ('open', 'completed'))
);
--> statement-breakpoint
CREATE TABLE "pay_task_predecessors" (
	"task_id" uuid NOT NULL,
	"predecessor_id" uuid NOT NULL,
	CONSTRAINT "pay_task_predecessors_task_id_predecessor_id_pk" PRIMARY KEY("task_id","predecessor_id"),
	CONSTRAINT "pay_task_predecessors_not_self" CHECK ("pay_task_predecessors"."task_id" <> "pay_task_predecessors"."predecessor_id")
);
--> statement-breakpoint
CREATE TABLE "pay_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'todo' NOT NULL,
	"agreement_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_tasks_status" CHECK ("pay_tasks"."status" in ('todo', 'in_progress', 'blocked', 'done'))
);
--> statement-breakpoint
CREATE TABLE "pay_wallets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity_id" uuid NOT NULL,
	"chain_id" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_wallets_address" UNIQUE("address"),
	CONSTRAINT "pay_wallets_chain" CHECK ("pay_wallets"."chain_id" in ('151', '153')),
	CONSTRAINT "pay_wallets_address_shape" CHECK ("pay_wallets"."address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
ALTER TABLE "pay_accounts" ADD CONSTRAINT "pay_accounts_asset_id_pay_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."pay_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_accounts" ADD CONSTRAINT "pay_accounts_wallet_id_pay_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."pay_wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_agreements" ADD CONSTRAINT "pay_agreements_workspace_id_pay_entities_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."pay_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_agreements" ADD CONSTRAINT "pay_agreements_counterparty_contact_id_pay_contacts_id_fk" FOREIGN KEY ("counterparty_contact_id") REFERENCES "public"."pay_contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_connection_requests" ADD CONSTRAINT "pay_connection_requests_from_entity_id_pay_entities_id_fk" FOREIGN KEY ("from_entity_id") REFERENCES "public"."pay_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_connection_requests" ADD CONSTRAINT "pay_connection_requests_to_entity_id_pay_entities_id_fk" FOREIGN KEY ("to_entity_id") REFERENCES "public"."pay_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_contacts" ADD CONSTRAINT "pay_contacts_workspace_id_pay_entities_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."pay_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_intent_events" ADD CONSTRAINT "pay_intent_events_intent_id_pay_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."pay_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_intents" ADD CONSTRAINT "pay_intents_workspace_id_pay_entities_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."pay_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_intents" ADD CONSTRAINT "pay_intents_wallet_id_pay_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."pay_wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_memberships" ADD CONSTRAINT "pay_memberships_group_id_pay_entities_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."pay_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_payments" ADD CONSTRAINT "pay_payments_asset_id_pay_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."pay_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_payments" ADD CONSTRAINT "pay_payments_from_wallet_id_pay_wallets_id_fk" FOREIGN KEY ("from_wallet_id") REFERENCES "public"."pay_wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_payments" ADD CONSTRAINT "pay_payments_to_wallet_id_pay_wallets_id_fk" FOREIGN KEY ("to_wallet_id") REFERENCES "public"."pay_wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_postings" ADD CONSTRAINT "pay_postings_transaction_id_pay_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."pay_ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_postings" ADD CONSTRAINT "pay_postings_account_id_pay_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."pay_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_postings" ADD CONSTRAINT "pay_postings_asset_id_pay_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."pay_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_scheduled_payments" ADD CONSTRAINT "pay_scheduled_payments_agreement_id_pay_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."pay_agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_scheduled_payments" ADD CONSTRAINT "pay_scheduled_payments_asset_id_pay_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."pay_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_scheduled_payments" ADD CONSTRAINT "pay_scheduled_payments_payment_id_pay_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."pay_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_swaps" ADD CONSTRAINT "pay_swaps_initiator_wallet_id_pay_wallets_id_fk" FOREIGN KEY ("initiator_wallet_id") REFERENCES "public"."pay_wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_swaps" ADD CONSTRAINT "pay_swaps_counterparty_wallet_id_pay_wallets_id_fk" FOREIGN KEY ("counterparty_wallet_id") REFERENCES "public"."pay_wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_swaps" ADD CONSTRAINT "pay_swaps_credit_asset_id_pay_assets_id_fk" FOREIGN KEY ("credit_asset_id") REFERENCES "public"."pay_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_swaps" ADD CONSTRAINT "pay_swaps_cash_asset_id_pay_assets_id_fk" FOREIGN KEY ("cash_asset_id") REFERENCES "public"."pay_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_task_predecessors" ADD CONSTRAINT "pay_task_predecessors_task_id_pay_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."pay_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_task_predecessors" ADD CONSTRAINT "pay_task_predecessors_predecessor_id_pay_tasks_id_fk" FOREIGN KEY ("predecessor_id") REFERENCES "public"."pay_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_tasks" ADD CONSTRAINT "pay_tasks_workspace_id_pay_entities_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."pay_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_tasks" ADD CONSTRAINT "pay_tasks_agreement_id_pay_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."pay_agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_wallets" ADD CONSTRAINT "pay_wallets_entity_id_pay_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."pay_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pay_accounts_wallet_asset" ON "pay_accounts" USING btree ("wallet_id","asset_id") WHERE "pay_accounts"."kind" = 'wallet';--> statement-breakpoint
CREATE UNIQUE INDEX "pay_accounts_system_asset" ON "pay_accounts" USING btree ("kind","asset_id") WHERE "pay_accounts"."kind" <> 'wallet';--> statement-breakpoint
CREATE INDEX "pay_agreements_workspace" ON "pay_agreements" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_assets_chain_symbol" ON "pay_assets" USING btree ("chain_id","symbol");--> statement-breakpoint
CREATE INDEX "pay_connection_requests_from" ON "pay_connection_requests" USING btree ("from_entity_id","id");--> statement-breakpoint
CREATE INDEX "pay_connection_requests_to" ON "pay_connection_requests" USING btree ("to_entity_id","id");--> statement-breakpoint
CREATE INDEX "pay_contacts_workspace" ON "pay_contacts" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE INDEX "pay_contacts_email" ON "pay_contacts" USING btree ("workspace_id","email");--> statement-breakpoint
CREATE INDEX "pay_intent_events_intent" ON "pay_intent_events" USING btree ("intent_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_intents_open_identity" ON "pay_intents" USING btree ("identity_hash") WHERE "pay_intents"."status" in ('proposed', 'approved', 'submitting', 'submitted');--> statement-breakpoint
CREATE UNIQUE INDEX "pay_intents_open_request" ON "pay_intents" USING btree ("actor_user_id","chain_id","workspace_id","request_id") WHERE "pay_intents"."request_id" is not null and "pay_intents"."status" in ('proposed', 'approved', 'submitting', 'submitted');--> statement-breakpoint
CREATE INDEX "pay_intents_workspace" ON "pay_intents" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "pay_intents_actor" ON "pay_intents" USING btree ("actor_user_id","chain_id","created_at");--> statement-breakpoint
CREATE INDEX "pay_intents_work" ON "pay_intents" USING btree ("status","claimed_at") WHERE "pay_intents"."status" in ('approved', 'submitting', 'submitted');--> statement-breakpoint
CREATE INDEX "pay_intents_expiry" ON "pay_intents" USING btree ("expires_at") WHERE "pay_intents"."status" = 'proposed';--> statement-breakpoint
CREATE INDEX "pay_memberships_user" ON "pay_memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "pay_payments_to" ON "pay_payments" USING btree ("to_wallet_id","status");--> statement-breakpoint
CREATE INDEX "pay_postings_account" ON "pay_postings" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "pay_postings_transaction" ON "pay_postings" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "pay_scheduled_payments_agreement" ON "pay_scheduled_payments" USING btree ("agreement_id","due_at");--> statement-breakpoint
CREATE INDEX "pay_swaps_counterparty" ON "pay_swaps" USING btree ("counterparty_wallet_id","status");--> statement-breakpoint
CREATE INDEX "pay_task_predecessors_pred" ON "pay_task_predecessors" USING btree ("predecessor_id");--> statement-breakpoint
CREATE INDEX "pay_tasks_workspace" ON "pay_tasks" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_wallets_entity_chain" ON "pay_wallets" USING btree ("entity_id","chain_id");