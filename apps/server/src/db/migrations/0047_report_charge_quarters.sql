CREATE TABLE "report_charge_quarters" (
	"bucket" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"referenced" boolean NOT NULL,
	"succeeded" boolean NOT NULL,
	"amount_cents" bigint NOT NULL,
	"charges" integer NOT NULL,
	CONSTRAINT "report_charge_quarters_pkey" PRIMARY KEY("bucket","kind","method","referenced","succeeded")
);
--> statement-breakpoint
DROP INDEX IF EXISTS "charges_takings";--> statement-breakpoint
DROP INDEX IF EXISTS "charges_kind_created";