CREATE TABLE "club_memberships" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"good_standing" boolean GENERATED ALWAYS AS (status = 'active') STORED,
	"credits_per_month" integer NOT NULL,
	"full_price_cents" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"discount_percent" integer NOT NULL,
	"cycle_day" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"next_charge_on" date NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_on" date,
	"discounts_given_cents" integer DEFAULT 0 NOT NULL,
	"cycles_paid" integer DEFAULT 0 NOT NULL,
	"chargeback_failures" integer DEFAULT 0 NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "club_memberships_cycle_day" CHECK ("club_memberships"."cycle_day" between 1 and 31)
);
--> statement-breakpoint
CREATE TABLE "credit_balances" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_balances_not_negative" CHECK ("credit_balances"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"membership_id" integer,
	"charge_id" integer,
	"reservation_id" integer,
	"checkout_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "club_memberships" ADD CONSTRAINT "club_memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_balances" ADD CONSTRAINT "credit_balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_membership_id_club_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."club_memberships"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "club_memberships_one_live_per_user" ON "club_memberships" USING btree ("user_id") WHERE "club_memberships"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "club_memberships_due" ON "club_memberships" USING btree ("next_charge_on") WHERE "club_memberships"."status" in ('active', 'past_due');--> statement-breakpoint
CREATE INDEX "credit_entries_user" ON "credit_entries" USING btree ("user_id","created_at");