-- A confirmation owed by any paid booking (decision 0102): its own id; a checkout's keeps its
-- checkout_id (unique when set), a club credit booking's has none and stores its facts.
ALTER TABLE "receipts_owed" DROP CONSTRAINT "receipts_owed_pkey";--> statement-breakpoint
ALTER TABLE "receipts_owed" ALTER COLUMN "checkout_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts_owed" ADD COLUMN "id" serial PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts_owed" ADD CONSTRAINT "receipts_owed_checkoutId_unique" UNIQUE("checkout_id");--> statement-breakpoint
ALTER TABLE "receipts_owed" ADD CONSTRAINT "receipts_owed_what" CHECK ("receipts_owed"."checkout_id" is not null or "receipts_owed"."facts" is not null);
