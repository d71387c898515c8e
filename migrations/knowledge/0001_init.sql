CREATE TABLE "kb_blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"media_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_chunks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"room_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"start_offset" integer NOT NULL,
	"end_offset" integer NOT NULL,
	"text" text NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED
);
--> statement-breakpoint
CREATE TABLE "kb_deal_parties" (
	"deal_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "kb_deal_parties_deal_id_user_id_pk" PRIMARY KEY("deal_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "kb_deals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid,
	"title" text NOT NULL,
	"status" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"terms" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"room_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"name" text NOT NULL,
	"media_type" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"text" text DEFAULT '' NOT NULL,
	"char_count" integer DEFAULT 0 NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"entity_count" integer DEFAULT 0 NOT NULL,
	"relation_count" integer DEFAULT 0 NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"indexed_at" timestamp with time zone,
	CONSTRAINT "kb_documents_status_check" CHECK ("kb_documents"."status" in ('indexing', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "kb_entities" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"room_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"label" text NOT NULL,
	"attrs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"mention_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_mentions" (
	"entity_id" bigint NOT NULL,
	"document_id" uuid NOT NULL,
	"start_offset" integer NOT NULL,
	"end_offset" integer NOT NULL,
	CONSTRAINT "kb_mentions_entity_id_start_offset_pk" PRIMARY KEY("entity_id","start_offset")
);
--> statement-breakpoint
CREATE TABLE "kb_relations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"room_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"from_entity" bigint NOT NULL,
	"to_entity" bigint,
	"start_offset" integer NOT NULL,
	"end_offset" integer NOT NULL,
	"weight" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_room_members" (
	"room_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kb_room_members_room_id_user_id_pk" PRIMARY KEY("room_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "kb_rooms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kb_rooms_kind_check" CHECK ("kb_rooms"."kind" in ('workspace', 'notebook'))
);
--> statement-breakpoint
CREATE TABLE "kb_set_members" (
	"set_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"room_id" uuid NOT NULL,
	"occurrences" integer NOT NULL,
	CONSTRAINT "kb_set_members_set_id_document_id_pk" PRIMARY KEY("set_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "kb_set_shares" (
	"set_id" uuid NOT NULL,
	"room_id" uuid NOT NULL,
	"shared_by" uuid NOT NULL,
	"shared_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kb_set_shares_set_id_room_id_pk" PRIMARY KEY("set_id","room_id")
);
--> statement-breakpoint
CREATE TABLE "kb_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"query" text NOT NULL,
	"mode" text NOT NULL,
	"scope" jsonb NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"documents" integer,
	"occurrences" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"frozen_at" timestamp with time zone,
	CONSTRAINT "kb_sets_status_check" CHECK ("kb_sets"."status" in ('running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "kb_chunks" ADD CONSTRAINT "kb_chunks_document_id_kb_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."kb_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_deal_parties" ADD CONSTRAINT "kb_deal_parties_deal_id_kb_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."kb_deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD CONSTRAINT "kb_documents_room_id_kb_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."kb_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD CONSTRAINT "kb_documents_sha256_kb_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."kb_blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_entities" ADD CONSTRAINT "kb_entities_document_id_kb_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."kb_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_mentions" ADD CONSTRAINT "kb_mentions_entity_id_kb_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."kb_entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_relations" ADD CONSTRAINT "kb_relations_document_id_kb_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."kb_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_relations" ADD CONSTRAINT "kb_relations_from_entity_kb_entities_id_fk" FOREIGN KEY ("from_entity") REFERENCES "public"."kb_entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_relations" ADD CONSTRAINT "kb_relations_to_entity_kb_entities_id_fk" FOREIGN KEY ("to_entity") REFERENCES "public"."kb_entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_room_members" ADD CONSTRAINT "kb_room_members_room_id_kb_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."kb_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_set_members" ADD CONSTRAINT "kb_set_members_set_id_kb_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."kb_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_set_members" ADD CONSTRAINT "kb_set_members_document_id_kb_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."kb_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_set_shares" ADD CONSTRAINT "kb_set_shares_set_id_kb_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."kb_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_set_shares" ADD CONSTRAINT "kb_set_shares_room_id_kb_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."kb_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kb_chunks_document_ordinal" ON "kb_chunks" USING btree ("document_id","ordinal");--> statement-breakpoint
CREATE INDEX "kb_chunks_room" ON "kb_chunks" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "kb_chunks_tsv" ON "kb_chunks" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "kb_chunks_text_trgm" ON "kb_chunks" USING gin ("text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "kb_deal_parties_user" ON "kb_deal_parties" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kb_documents_room_sha" ON "kb_documents" USING btree ("room_id","sha256");--> statement-breakpoint
CREATE INDEX "kb_documents_room_created" ON "kb_documents" USING btree ("room_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "kb_entities_document_kind_key" ON "kb_entities" USING btree ("document_id","kind","key");--> statement-breakpoint
CREATE INDEX "kb_entities_room_kind" ON "kb_entities" USING btree ("room_id","kind");--> statement-breakpoint
CREATE INDEX "kb_entities_key_trgm" ON "kb_entities" USING gin ("key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "kb_mentions_document" ON "kb_mentions" USING btree ("document_id","start_offset");--> statement-breakpoint
CREATE INDEX "kb_relations_from" ON "kb_relations" USING btree ("from_entity");--> statement-breakpoint
CREATE INDEX "kb_relations_to" ON "kb_relations" USING btree ("to_entity");--> statement-breakpoint
CREATE INDEX "kb_relations_document" ON "kb_relations" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "kb_room_members_user" ON "kb_room_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kb_rooms_creator_name" ON "kb_rooms" USING btree ("created_by","name");--> statement-breakpoint
CREATE INDEX "kb_set_shares_room" ON "kb_set_shares" USING btree ("room_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kb_sets_job" ON "kb_sets" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "kb_sets_owner" ON "kb_sets" USING btree ("owner_id","created_at");