CREATE TABLE "event_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"calendar_id" integer NOT NULL,
	"user_id" integer,
	"car_id" integer,
	"skin_id" integer,
	"exited" boolean DEFAULT false NOT NULL,
	"initialized" boolean DEFAULT false NOT NULL,
	"launched" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"spawn" text NOT NULL,
	"ordering" integer NOT NULL,
	"duration" integer NOT NULL,
	"duration_is_laps" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parties" (
	"id" serial PRIMARY KEY NOT NULL,
	"location_id" integer NOT NULL,
	"name" text NOT NULL,
	"host_calendar_id" integer NOT NULL,
	"host_event_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parties_hostCalendarId_unique" UNIQUE("host_calendar_id")
);
--> statement-breakpoint
CREATE TABLE "party_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"party_id" integer NOT NULL,
	"calendar_id" integer NOT NULL,
	"is_host" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "party_members_calendarId_unique" UNIQUE("calendar_id")
);
--> statement-breakpoint
CREATE TABLE "race_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"calendar_id" integer NOT NULL,
	"track_id" integer,
	"car_ids" integer[] DEFAULT '{}' NOT NULL,
	"preset_id" integer,
	"assists" text[] DEFAULT '{}' NOT NULL,
	"penalties" boolean DEFAULT true NOT NULL,
	"fixed_setup" boolean DEFAULT false NOT NULL,
	"drift_mode" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "race_events_calendarId_unique" UNIQUE("calendar_id")
);
--> statement-breakpoint
CREATE TABLE "race_presets" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"track_id" integer,
	"car_ids" integer[] DEFAULT '{}' NOT NULL,
	"sessions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"assists" text[] DEFAULT '{}' NOT NULL,
	"penalties" boolean DEFAULT true NOT NULL,
	"fixed_setup" boolean DEFAULT false NOT NULL,
	"drift_mode" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "socket_tickets" (
	"hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_entries" ADD CONSTRAINT "event_entries_event_id_race_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."race_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_entries" ADD CONSTRAINT "event_entries_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_entries" ADD CONSTRAINT "event_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_entries" ADD CONSTRAINT "event_entries_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_entries" ADD CONSTRAINT "event_entries_skin_id_skins_id_fk" FOREIGN KEY ("skin_id") REFERENCES "public"."skins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_sessions" ADD CONSTRAINT "event_sessions_event_id_race_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."race_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parties" ADD CONSTRAINT "parties_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parties" ADD CONSTRAINT "parties_host_calendar_id_calendars_id_fk" FOREIGN KEY ("host_calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parties" ADD CONSTRAINT "parties_host_event_id_race_events_id_fk" FOREIGN KEY ("host_event_id") REFERENCES "public"."race_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_members" ADD CONSTRAINT "party_members_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_members" ADD CONSTRAINT "party_members_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_events" ADD CONSTRAINT "race_events_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_events" ADD CONSTRAINT "race_events_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_events" ADD CONSTRAINT "race_events_preset_id_race_presets_id_fk" FOREIGN KEY ("preset_id") REFERENCES "public"."race_presets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_presets" ADD CONSTRAINT "race_presets_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "socket_tickets" ADD CONSTRAINT "socket_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "socket_tickets" ADD CONSTRAINT "socket_tickets_event_id_race_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."race_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_entries_event_calendar" ON "event_entries" USING btree ("event_id","calendar_id");--> statement-breakpoint
CREATE INDEX "event_sessions_event" ON "event_sessions" USING btree ("event_id","ordering");--> statement-breakpoint
CREATE INDEX "parties_location" ON "parties" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "party_members_party" ON "party_members" USING btree ("party_id");--> statement-breakpoint
-- Every seat has its own race event from the moment it exists (spec staff §3 Calendar.event):
-- single-player, sessions as the spec's defaults, one entry for the seat itself.
CREATE FUNCTION "race_event_for_seat"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	new_event integer;
BEGIN
	INSERT INTO "race_events" ("calendar_id") VALUES (NEW."id") RETURNING "id" INTO new_event;
	INSERT INTO "event_sessions" ("event_id", "name", "type", "spawn", "ordering", "duration", "duration_is_laps") VALUES
		(new_event, 'Practice', 'PRACTICE', 'PIT', 0, 25, false),
		(new_event, 'Qualifying', 'QUALIFYING', 'PIT', 1, 10, false),
		(new_event, 'Race', 'RACE', 'START', 2, 10, false);
	INSERT INTO "event_entries" ("event_id", "calendar_id") VALUES (new_event, NEW."id");
	RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "calendars_race_event" AFTER INSERT ON "calendars" FOR EACH ROW EXECUTE FUNCTION "race_event_for_seat"();--> statement-breakpoint
-- Seats that exist already get theirs now.
DO $$
DECLARE
	seat record;
	new_event integer;
BEGIN
	FOR seat IN SELECT "id" FROM "calendars" ORDER BY "id" LOOP
		INSERT INTO "race_events" ("calendar_id") VALUES (seat."id") RETURNING "id" INTO new_event;
		INSERT INTO "event_sessions" ("event_id", "name", "type", "spawn", "ordering", "duration", "duration_is_laps") VALUES
			(new_event, 'Practice', 'PRACTICE', 'PIT', 0, 25, false),
			(new_event, 'Qualifying', 'QUALIFYING', 'PIT', 1, 10, false),
			(new_event, 'Race', 'RACE', 'START', 2, 10, false);
		INSERT INTO "event_entries" ("event_id", "calendar_id") VALUES (new_event, seat."id");
	END LOOP;
END;
$$;
