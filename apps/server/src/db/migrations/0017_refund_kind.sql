DROP INDEX "refunds_one_per_reservation";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "kind" text DEFAULT 'cancel' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_cancel_per_reservation" ON "refunds" USING btree ("reservation_id") WHERE "refunds"."kind" = 'cancel';