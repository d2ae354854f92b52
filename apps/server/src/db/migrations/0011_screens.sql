CREATE TABLE "screens" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"path" text DEFAULT '' NOT NULL,
	"build" text,
	"user_agent" text,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "screens_name_unique" UNIQUE("name")
);
