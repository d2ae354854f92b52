CREATE TABLE "local_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"charge_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "local_refunds_idempotencyKey_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"reservation_id" integer NOT NULL,
	"user_id" integer,
	"checkout_id" integer,
	"choice" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"paid_cents" integer NOT NULL,
	"kept_cents" integer NOT NULL,
	"card_cents" integer NOT NULL,
	"tax_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"credits" integer NOT NULL,
	"credits_cents" integer NOT NULL,
	"credits_status" text DEFAULT 'none' NOT NULL,
	"voucher_cents" integer NOT NULL,
	"voucher_id" integer,
	"charge_id" integer,
	"card_status" text DEFAULT 'none' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text DEFAULT '' NOT NULL,
	"provider_ref" text,
	"calendar_id" integer,
	"location_id" integer,
	"slot" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_not_negative" CHECK ("refunds"."card_cents" >= 0 and "refunds"."voucher_cents" >= 0 and "refunds"."credits" >= 0),
	CONSTRAINT "refunds_within_paid" CHECK ("refunds"."kept_cents" >= 0 and "refunds"."kept_cents" <= "refunds"."paid_cents")
);
--> statement-breakpoint
CREATE TABLE "waitlist_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"slot" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"held_calendar_id" integer,
	"hold_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "charge_id" integer;--> statement-breakpoint
ALTER TABLE "local_payment_methods" ADD COLUMN "refund_failure" text;--> statement-breakpoint
ALTER TABLE "local_tokens" ADD COLUMN "refund_failure" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "cancellation_window_hours" integer;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "late_cancellation_keep_percent" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_per_reservation" ON "refunds" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "refunds_user" ON "refunds" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "refunds_charge" ON "refunds" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_one_per_user_slot" ON "waitlist_entries" USING btree ("user_id","location_id","slot");--> statement-breakpoint
CREATE INDEX "waitlist_location_slot" ON "waitlist_entries" USING btree ("location_id","slot","id");