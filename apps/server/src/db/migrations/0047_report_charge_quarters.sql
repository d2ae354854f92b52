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
-- charges_takings and charges_kind_created (0042) are no longer read (decision 0107): they are
-- dropped concurrently after the migrations by src/db/concurrent-indexes.ts (RETIRED_INDEXES),
-- not here, where DROP INDEX would hold charges, reads too, until the migrations are applied.
select 1;