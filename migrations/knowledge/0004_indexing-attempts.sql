ALTER TABLE "kb_documents" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD COLUMN "claimed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "kb_documents_indexing_claimed" ON "kb_documents" USING btree ("claimed_at") WHERE "kb_documents"."status" = 'indexing';