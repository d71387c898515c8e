ALTER TABLE "kb_lexemes" ADD COLUMN "followers1" text;--> statement-breakpoint
ALTER TABLE "kb_lexemes" ADD COLUMN "followers2" text;--> statement-breakpoint
ALTER TABLE "kb_tokens" ADD COLUMN "followers" text;