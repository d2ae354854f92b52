CREATE TABLE "report_seat_days" (
	"calendar_id" integer NOT NULL,
	"day" date NOT NULL,
	"hours" integer[] DEFAULT array_fill(0, array[24]) NOT NULL,
	"paid_cents" integer DEFAULT 0 NOT NULL,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_seat_days_calendar_id_day_pk" PRIMARY KEY("calendar_id","day")
);
--> statement-breakpoint
ALTER TABLE "report_seat_days" ADD CONSTRAINT "report_seat_days_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservations_paid_report" ON "reservations" USING btree ("calendar_id","slot","user_id","amount_cents") WHERE "reservations"."paid" and "reservations"."cancelled_at" is null and not "reservations"."is_blackout";--> statement-breakpoint
CREATE INDEX "reservations_live_no_shows" ON "reservations" USING btree ("calendar_id","slot") WHERE "reservations"."attendance" = 'no_show' and "reservations"."cancelled_at" is null and not "reservations"."is_blackout";