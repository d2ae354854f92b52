ALTER TABLE "parties" DROP CONSTRAINT "parties_hostCalendarId_unique";--> statement-breakpoint
ALTER TABLE "party_members" DROP CONSTRAINT "party_members_calendarId_unique";--> statement-breakpoint
ALTER TABLE "race_events" ALTER COLUMN "calendar_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "parties" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "parties" ADD COLUMN "switched_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "parties_waiting" ON "parties" USING btree ("starts_at") WHERE switched_at is null and starts_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "party_members_party_calendar" ON "party_members" USING btree ("party_id","calendar_id");--> statement-breakpoint
CREATE INDEX "party_members_calendar" ON "party_members" USING btree ("calendar_id");