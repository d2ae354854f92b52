ALTER TABLE "charges" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "taken_by_id" integer;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_taken_by_id_users_id_fk" FOREIGN KEY ("taken_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;