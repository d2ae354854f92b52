-- Decision 0059: a booking confirmation owed, written with the payment (the quick path's
-- finishing statement, or the full path's transaction) and deleted by whichever instance's
-- sender mails it, in the transaction that stores the mail.
CREATE TABLE "receipts_owed" (
	"checkout_id" integer PRIMARY KEY NOT NULL,
	"facts" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "receipts_owed" ADD CONSTRAINT "receipts_owed_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipts_owed_due" ON "receipts_owed" USING btree ("due_at");