CREATE TABLE "boards" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"calculation" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"track_id" integer,
	"group_id" integer,
	"since" date,
	"time_frame_days" integer,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"points_rules" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "car_group_members" (
	"car_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "car_group_members_car_id_group_id_pk" PRIMARY KEY("car_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "car_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "car_groups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "cars" (
	"id" serial PRIMARY KEY NOT NULL,
	"sim" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"car_class" text DEFAULT '' NOT NULL,
	"needs_review" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "laps" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"calendar_id" integer,
	"track_id" integer NOT NULL,
	"car_id" integer NOT NULL,
	"sim" text NOT NULL,
	"lap_ms" integer NOT NULL,
	"sectors_ms" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cuts" integer DEFAULT 0 NOT NULL,
	"tyre" text DEFAULT '' NOT NULL,
	"fuel" real,
	"ballast_kg" integer,
	"driver_guid" text DEFAULT '' NOT NULL,
	"driver_name" text DEFAULT '' NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"source_key" text NOT NULL,
	"valid" boolean NOT NULL,
	"invalid_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "laps_sourceKey_unique" UNIQUE("source_key")
);
--> statement-breakpoint
CREATE TABLE "personal_bests" (
	"user_id" integer NOT NULL,
	"track_id" integer NOT NULL,
	"car_id" integer NOT NULL,
	"lap_id" integer NOT NULL,
	"lap_ms" integer NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "personal_bests_user_id_track_id_car_id_pk" PRIMARY KEY("user_id","track_id","car_id")
);
--> statement-breakpoint
CREATE TABLE "race_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"position" integer NOT NULL,
	"user_id" integer,
	"driver_guid" text DEFAULT '' NOT NULL,
	"driver_name" text NOT NULL,
	"team_name" text DEFAULT '' NOT NULL,
	"car_id" integer NOT NULL,
	"best_lap_ms" integer,
	"total_ms" integer,
	"laps" integer DEFAULT 0 NOT NULL,
	"fastest_lap" boolean DEFAULT false NOT NULL,
	"pole" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "race_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"file_sha" text NOT NULL,
	"sim" text NOT NULL,
	"track_id" integer NOT NULL,
	"kind" text NOT NULL,
	"server_name" text DEFAULT '' NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"imported_by_id" integer,
	CONSTRAINT "race_sessions_fileSha_unique" UNIQUE("file_sha")
);
--> statement-breakpoint
CREATE TABLE "rig_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"calendar_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "rig_keys_keyHash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "skins" (
	"id" serial PRIMARY KEY NOT NULL,
	"car_id" integer NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracks" (
	"id" serial PRIMARY KEY NOT NULL,
	"sim" text NOT NULL,
	"key" text NOT NULL,
	"layout" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"length_m" integer,
	"needs_review" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sim_guid" text;--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_group_id_car_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."car_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_group_members" ADD CONSTRAINT "car_group_members_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_group_members" ADD CONSTRAINT "car_group_members_group_id_car_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."car_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laps" ADD CONSTRAINT "laps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laps" ADD CONSTRAINT "laps_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laps" ADD CONSTRAINT "laps_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laps" ADD CONSTRAINT "laps_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_lap_id_laps_id_fk" FOREIGN KEY ("lap_id") REFERENCES "public"."laps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_results" ADD CONSTRAINT "race_results_session_id_race_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."race_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_results" ADD CONSTRAINT "race_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_results" ADD CONSTRAINT "race_results_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_sessions" ADD CONSTRAINT "race_sessions_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "race_sessions" ADD CONSTRAINT "race_sessions_imported_by_id_users_id_fk" FOREIGN KEY ("imported_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rig_keys" ADD CONSTRAINT "rig_keys_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skins" ADD CONSTRAINT "skins_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "car_group_members_group" ON "car_group_members" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cars_sim_key" ON "cars" USING btree ("sim","key");--> statement-breakpoint
CREATE INDEX "laps_user_recorded" ON "laps" USING btree ("user_id","recorded_at");--> statement-breakpoint
CREATE INDEX "laps_track_recorded" ON "laps" USING btree ("track_id","recorded_at");--> statement-breakpoint
CREATE INDEX "laps_track_time" ON "laps" USING btree ("track_id","lap_ms","recorded_at") WHERE "laps"."valid" and "laps"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "laps_unassigned_guid" ON "laps" USING btree ("driver_guid") WHERE "laps"."user_id" is null;--> statement-breakpoint
CREATE INDEX "laps_personal_best" ON "laps" USING btree ("user_id","track_id","car_id","lap_ms","recorded_at") WHERE "laps"."valid";--> statement-breakpoint
CREATE INDEX "personal_bests_board" ON "personal_bests" USING btree ("track_id","lap_ms","recorded_at");--> statement-breakpoint
CREATE INDEX "race_results_session" ON "race_results" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "skins_car_key" ON "skins" USING btree ("car_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "tracks_sim_key_layout" ON "tracks" USING btree ("sim","key","layout");--> statement-breakpoint
CREATE UNIQUE INDEX "users_sim_guid" ON "users" USING btree ("sim_guid");