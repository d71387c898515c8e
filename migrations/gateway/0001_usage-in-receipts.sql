-- Metering moves into the receipt row (one row per routed call, one INSERT on the hot path);
-- gw_usage becomes a view of it. Existing usage lines are copied onto their receipts first.
ALTER TABLE "gw_receipts" ADD COLUMN "cost_micro_usdc" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gw_receipts" ADD COLUMN "cached" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "gw_receipts" AS r SET "cost_micro_usdc" = u."cost_micro_usdc", "cached" = u."cached" FROM "gw_usage" AS u WHERE u."receipt_id" = r."id";--> statement-breakpoint
DROP TABLE "gw_usage" CASCADE;--> statement-breakpoint
CREATE VIEW "public"."gw_usage" AS (select "id" as "receipt_id", "subject", "upstream", "tool", "cost_micro_usdc", "cached", "created_at" from "gw_receipts");
