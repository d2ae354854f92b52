CREATE TABLE "voucher_purchases" (
	"id" serial PRIMARY KEY NOT NULL,
	"buyer_id" integer NOT NULL,
	"code" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" char(3) NOT NULL,
	"recipient_email" text DEFAULT '' NOT NULL,
	"from_name" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voucher_purchases_code_unique" UNIQUE("code"),
	CONSTRAINT "voucher_purchases_status" CHECK ("voucher_purchases"."status" in ('awaiting_authentication', 'paid', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "voucher_purchases" ADD CONSTRAINT "voucher_purchases_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;