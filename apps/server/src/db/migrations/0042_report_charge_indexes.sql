-- charges_takings and charges_kind_created (issue 33: the owner's reports over a chain's year of
-- charges, read from the index alone) are built with CREATE INDEX CONCURRENTLY by
-- src/db/concurrent-indexes.ts right after the migrations, with the INCLUDE columns drizzle
-- cannot declare, as charges_created is (decision 0092): a plain CREATE INDEX here would hold
-- every checkout's charge for the whole build.
select 1;
