import type pg from 'pg';

/**
 * Indexes on big tables, built with `CREATE INDEX CONCURRENTLY` after drizzle's migrations
 * (decision 0092). drizzle applies every pending migration in one transaction, where
 * CONCURRENTLY cannot run, and a plain CREATE INDEX holds writes to the table (bookings, charges)
 * for as long as the build takes: minutes on a chain's tables. Each index is declared in the
 * drizzle schema too; its generated migration holds no statement, only a pointer here.
 */
export const CONCURRENT_INDEXES: { name: string; definition: string }[] = [
  // The reports' refunds made at the provider, by period: charges by time, not by customer.
  { name: 'charges_created', definition: 'on charges using btree (created_at)' },
  // Whether a checkout's bookings were paid with credits, on every list of bookings (0096).
  {
    name: 'credit_entries_checkout',
    definition: 'on credit_entries using btree (checkout_id) where checkout_id is not null',
  },
  // A TIME board of a car group (GT3 at a track) reads each car's fastest laps and merges them:
  // walking the track's laps by time instead passes every faster car's laps first (issue 33:
  // 1.7 s at 10 M laps when a Formula car led the track).
  {
    name: 'personal_bests_board_car',
    definition: 'on personal_bests using btree (track_id, car_id, lap_ms, recorded_at, lap_id)',
  },
  {
    name: 'laps_track_car_time',
    definition:
      'on laps using btree (track_id, car_id, lap_ms, recorded_at, id) where valid and user_id is not null',
  },
];

/**
 * Indexes no statement reads any more, dropped concurrently after the migrations: a DROP INDEX in
 * a migration would hold the table whole (reads too) until every pending migration is applied.
 * A name here must never come back in `CONCURRENT_INDEXES`.
 */
export const RETIRED_INDEXES = [
  // The reports read report_charge_quarters instead (decision 0107).
  'charges_takings',
  'charges_kind_created',
];

/** Drops each retired index that is still there, outside any transaction. */
export async function dropRetiredIndexes(client: pg.PoolClient, names = RETIRED_INDEXES) {
  for (const name of names) await client.query(`drop index concurrently if exists "${name}"`);
}

/**
 * Builds each index that is missing, outside any transaction, on the migrating connection (the
 * caller holds the migration lock). A build that was interrupted leaves an invalid index
 * behind: it is dropped and built again.
 */
export async function buildConcurrentIndexes(client: pg.PoolClient, indexes = CONCURRENT_INDEXES) {
  for (const index of indexes) {
    const { rows } = await client.query<{ valid: boolean }>(
      `select i.indisvalid as valid from pg_index i
       join pg_class c on c.oid = i.indexrelid
       join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
       where c.relname = $1`,
      [index.name],
    );
    if (rows[0]?.valid) continue;
    if (rows[0]) await client.query(`drop index concurrently if exists "${index.name}"`);
    await client.query(`create index concurrently "${index.name}" ${index.definition}`);
  }
}
