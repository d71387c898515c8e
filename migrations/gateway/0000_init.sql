CREATE TABLE "gw_access_policies" (
	"subject" text PRIMARY KEY NOT NULL,
	"categories" text[] NOT NULL,
	"tiers" text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gw_approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"task_id" text,
	"upstream" text NOT NULL,
	"upstream_tool" text NOT NULL,
	"tool" text NOT NULL,
	"definition_sha256" text NOT NULL,
	"arguments" jsonb NOT NULL,
	"arguments_sha256" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"executed_at" timestamp with time zone,
	"receipt_id" uuid,
	CONSTRAINT "gw_approvals_status_check" CHECK ("gw_approvals"."status" in ('pending', 'approved', 'rejected', 'executing', 'executed'))
);
--> statement-breakpoint
CREATE TABLE "gw_receipts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"task_id" text,
	"upstream" text NOT NULL,
	"tool" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"cache_age_ms" integer NOT NULL,
	"input_sha256" text NOT NULL,
	"result_sha256" text NOT NULL,
	"runtime_state" text NOT NULL,
	"prev_hash" text NOT NULL,
	"receipt_hash" text NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gw_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gw_taints" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"task_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gw_tools" (
	"upstream" text NOT NULL,
	"name" text NOT NULL,
	"advertised_name" text NOT NULL,
	"definition" jsonb NOT NULL,
	"definition_sha256" text NOT NULL,
	"pending_definition" jsonb,
	"pending_sha256" text,
	"status" text DEFAULT 'active' NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gw_tools_upstream_name_pk" PRIMARY KEY("upstream","name"),
	CONSTRAINT "gw_tools_status_check" CHECK ("gw_tools"."status" in ('active', 'quarantined', 'removed'))
);
--> statement-breakpoint
CREATE TABLE "gw_upstreams" (
	"name" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"prefix" text NOT NULL,
	"categories" text[] NOT NULL,
	"tier" text DEFAULT 'standard' NOT NULL,
	"cost_micro_usdc" bigint DEFAULT 5000 NOT NULL,
	"timeout_ms" integer DEFAULT 30000 NOT NULL,
	"max_concurrent" integer DEFAULT 32 NOT NULL,
	"cache_ttls" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"auth" jsonb NOT NULL,
	"auto_approve" text[] DEFAULT '{}'::text[] NOT NULL,
	"source" text DEFAULT 'cli' NOT NULL,
	"discovered_at" timestamp with time zone,
	"refresh_requested_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gw_upstreams_prefix_check" CHECK ("gw_upstreams"."prefix" ~ '^[a-z][a-z0-9]{0,11}$'),
	CONSTRAINT "gw_upstreams_timeout_check" CHECK ("gw_upstreams"."timeout_ms" between 100 and 600000),
	CONSTRAINT "gw_upstreams_cost_check" CHECK ("gw_upstreams"."cost_micro_usdc" >= 0)
);
--> statement-breakpoint
CREATE TABLE "gw_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"upstream" text NOT NULL,
	"tool" text NOT NULL,
	"cost_micro_usdc" bigint NOT NULL,
	"cached" boolean NOT NULL,
	"receipt_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gw_tools" ADD CONSTRAINT "gw_tools_upstream_gw_upstreams_name_fk" FOREIGN KEY ("upstream") REFERENCES "public"."gw_upstreams"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gw_approvals_subject_idx" ON "gw_approvals" USING btree ("subject","status");--> statement-breakpoint
CREATE UNIQUE INDEX "gw_receipts_chain_key" ON "gw_receipts" USING btree ("subject","prev_hash");--> statement-breakpoint
CREATE INDEX "gw_receipts_subject_idx" ON "gw_receipts" USING btree ("subject","created_at");--> statement-breakpoint
CREATE INDEX "gw_taints_subject_task_idx" ON "gw_taints" USING btree ("subject","task_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "gw_tools_advertised_name_key" ON "gw_tools" USING btree ("advertised_name");--> statement-breakpoint
CREATE UNIQUE INDEX "gw_upstreams_prefix_key" ON "gw_upstreams" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "gw_usage_subject_idx" ON "gw_usage" USING btree ("subject","created_at");