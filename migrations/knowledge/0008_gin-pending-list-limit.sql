DROP INDEX "kb_chunks_tsv";--> statement-breakpoint
CREATE INDEX "kb_chunks_tsv" ON "kb_chunks" USING gin ("tsv") WITH (gin_pending_list_limit=256);