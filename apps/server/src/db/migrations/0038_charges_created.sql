-- charges_created (decision 0092) is built with CREATE INDEX CONCURRENTLY by
-- src/db/concurrent-indexes.ts right after the migrations: drizzle runs this file inside its one
-- transaction, where CONCURRENTLY cannot run, and a plain CREATE INDEX would hold every charge
-- (and so every booking paid) for the whole build on a chain's table.
select 1;
