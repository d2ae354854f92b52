CREATE TABLE "charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"amount_cents" integer NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"errors" text DEFAULT '' NOT NULL,
	"receipt_url" text,
	"charge_ref" text,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charges_idempotencyKey_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "local_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"postal_code" text,
	"attach_failure" text,
	"charge_failure" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "local_payment_methods" ADD COLUMN "charge_failure" text;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;