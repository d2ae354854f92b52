ALTER TABLE "vouchers" ADD COLUMN "currency" char(3) DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "currency" char(3) DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "local_charges" ADD COLUMN "currency" char(3) DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "currency" char(3) DEFAULT 'USD' NOT NULL;--> statement-breakpoint
-- Hand-written (docs/decisions/0039): the demo venue's Brighton location prices in pounds.
UPDATE "locations" SET "currency" = 'GBP' WHERE "name" = 'Paddock Brighton' AND "timezone" = 'Europe/London';
