CREATE TABLE "research_snapshots" (
	"source" text PRIMARY KEY NOT NULL,
	"as_of" timestamp with time zone,
	"fetched_at" timestamp with time zone NOT NULL,
	"origin" text NOT NULL,
	"record_count" integer NOT NULL,
	"payload" jsonb NOT NULL
);
