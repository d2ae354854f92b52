CREATE TABLE "live_timings" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"tower" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_timings" ADD CONSTRAINT "live_timings_event_id_race_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."race_events"("id") ON DELETE cascade ON UPDATE no action;