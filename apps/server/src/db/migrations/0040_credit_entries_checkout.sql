-- credit_entries_checkout (decision 0096: whether a checkout's bookings were paid with credits)
-- is built with CREATE INDEX CONCURRENTLY by src/db/concurrent-indexes.ts right after the
-- migrations, as charges_created is (decision 0092): a plain CREATE INDEX here would hold every
-- credit redemption, and so every club booking, for the whole build on a chain's table.
select 1;
