ALTER TABLE "calendar_types" ADD COLUMN "min_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
-- The price list, the About page and the VR seat type already promise a 2-hour minimum (0089).
UPDATE "calendar_types" SET "min_minutes" = 120 WHERE "is_vr";--> statement-breakpoint
ALTER TABLE "calendar_types" ADD CONSTRAINT "calendar_types_min_minutes_half_hours" CHECK ("min_minutes" BETWEEN 30 AND 480 AND "min_minutes" % 30 = 0);
