CREATE TABLE "images" (
	"id" serial PRIMARY KEY NOT NULL,
	"file" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"owner_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "images_file_unique" UNIQUE("file")
);
--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;