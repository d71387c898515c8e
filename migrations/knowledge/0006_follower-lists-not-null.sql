ALTER TABLE "kb_lexemes" ALTER COLUMN "followers1" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_lexemes" ALTER COLUMN "followers2" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_tokens" ALTER COLUMN "followers" SET NOT NULL;