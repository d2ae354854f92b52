CREATE TABLE "local_setup_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"token_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"reference" text NOT NULL,
	"status" text NOT NULL,
	"failure_message" text,
	"payment_method_id" text,
	"return_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "checkouts_charging";--> statement-breakpoint
ALTER TABLE "local_charges" ADD COLUMN "return_url" text;--> statement-breakpoint
ALTER TABLE "local_payment_methods" ADD COLUMN "authentication" text;--> statement-breakpoint
ALTER TABLE "local_tokens" ADD COLUMN "authentication" text;--> statement-breakpoint
CREATE INDEX "checkouts_claimed" ON "checkouts" USING btree ("id") WHERE "checkouts"."status" in ('charging', 'awaiting_authentication');