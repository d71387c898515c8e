CREATE TABLE "kb_lexemes" (
	"term" text NOT NULL,
	"document_id" uuid NOT NULL,
	"room_id" uuid NOT NULL,
	"positions" integer[] NOT NULL,
	CONSTRAINT "kb_lexemes_term_document_id_pk" PRIMARY KEY("term","document_id")
);
--> statement-breakpoint
CREATE TABLE "kb_tokens" (
	"term" text NOT NULL,
	"document_id" uuid NOT NULL,
	"room_id" uuid NOT NULL,
	"positions" integer[] NOT NULL,
	CONSTRAINT "kb_tokens_term_document_id_pk" PRIMARY KEY("term","document_id")
);
--> statement-breakpoint
CREATE INDEX "kb_lexemes_document" ON "kb_lexemes" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "kb_tokens_document" ON "kb_tokens" USING btree ("document_id");