CREATE TABLE "move_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"reservation_id" integer NOT NULL,
	"charge_id" integer NOT NULL,
	"card_cents" integer NOT NULL,
	"tax_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"from_calendar_id" integer,
	"from_slot" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "move_charges_chargeId_unique" UNIQUE("charge_id"),
	CONSTRAINT "move_charges_parts" CHECK ("move_charges"."card_cents" > 0 and "move_charges"."tax_cents" >= 0 and "move_charges"."fee_cents" >= 0 and "move_charges"."tax_cents" <= "move_charges"."card_cents")
);
--> statement-breakpoint
DROP INDEX "refunds_one_cancel_per_reservation";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "part_of" integer;--> statement-breakpoint
ALTER TABLE "move_charges" ADD CONSTRAINT "move_charges_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "move_charges" ADD CONSTRAINT "move_charges_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "move_charges_reservation" ON "move_charges" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "refunds_part_of" ON "refunds" USING btree ("part_of");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_cancel_per_reservation" ON "refunds" USING btree ("reservation_id") WHERE "refunds"."kind" = 'cancel' and "refunds"."part_of" is null;