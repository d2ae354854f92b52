CREATE TABLE "audit_totals" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"events" bigint NOT NULL,
	CONSTRAINT "audit_totals_one_row" CHECK ("audit_totals"."one")
);
