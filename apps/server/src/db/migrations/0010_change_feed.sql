CREATE TABLE "change_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"ref_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
