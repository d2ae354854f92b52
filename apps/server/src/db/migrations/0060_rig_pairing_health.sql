CREATE TABLE "rig_health" (
	"calendar_id" integer PRIMARY KEY NOT NULL,
	"rig_key_id" integer,
	"agent_version" text NOT NULL,
	"sim_running" boolean NOT NULL,
	"disk_free_bytes" bigint,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rig_pairings" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"secret_hash" text NOT NULL,
	"hostname" text DEFAULT '' NOT NULL,
	"calendar_id" integer,
	"key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rig_pairings_code_unique" UNIQUE("code"),
	CONSTRAINT "rig_pairings_secretHash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
ALTER TABLE "rig_health" ADD CONSTRAINT "rig_health_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rig_health" ADD CONSTRAINT "rig_health_rig_key_id_rig_keys_id_fk" FOREIGN KEY ("rig_key_id") REFERENCES "public"."rig_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rig_pairings" ADD CONSTRAINT "rig_pairings_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rig_pairings_expires" ON "rig_pairings" USING btree ("expires_at");