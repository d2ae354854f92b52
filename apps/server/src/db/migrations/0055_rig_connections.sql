CREATE TABLE "rig_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"calendar_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rig_connections" ADD CONSTRAINT "rig_connections_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rig_connections" ADD CONSTRAINT "rig_connections_event_id_race_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."race_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rig_connections_event" ON "rig_connections" USING btree ("event_id","calendar_id");--> statement-breakpoint
CREATE INDEX "rig_connections_expires" ON "rig_connections" USING btree ("expires_at");