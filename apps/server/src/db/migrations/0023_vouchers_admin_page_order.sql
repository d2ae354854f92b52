ALTER TABLE "vouchers" ADD COLUMN "source" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "recipient_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "recipient_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "from_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "expires_on" date;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "voided_by_id" integer;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "void_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "menu_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_voided_by_id_users_id_fk" FOREIGN KEY ("voided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_source" CHECK ("vouchers"."source" in ('staff', 'purchase'));--> statement-breakpoint
-- Hand-written (docs/decisions/0042): vouchers bought with a card have a `voucher-{code}` charge.
UPDATE "vouchers" SET "source" = 'purchase' WHERE EXISTS (SELECT 1 FROM "charges" WHERE "charges"."idempotency_key" = 'voucher-' || "vouchers"."code");
