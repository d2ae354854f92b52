CREATE TABLE "payment_disputes" (
	"id" serial PRIMARY KEY NOT NULL,
	"dispute_ref" text NOT NULL,
	"charge_id" integer NOT NULL,
	"user_id" integer,
	"amount_cents" integer NOT NULL,
	"currency" char(3) NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "payment_disputes_disputeRef_unique" UNIQUE("dispute_ref")
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"livemode" boolean NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text DEFAULT '' NOT NULL,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_disputes_user" ON "payment_disputes" USING btree ("user_id","opened_at");--> statement-breakpoint
CREATE INDEX "payment_disputes_charge" ON "payment_disputes" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "stripe_events_unhandled" ON "stripe_events" USING btree ("received_at") WHERE "stripe_events"."handled_at" is null;--> statement-breakpoint
CREATE INDEX "charges_charge_ref" ON "charges" USING btree ("charge_ref");