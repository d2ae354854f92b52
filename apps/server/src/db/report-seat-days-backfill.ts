import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './client';

const MIGRATION = '0025_report_seat_days_sync.sql';
const MARK = '-- The bookings already there.';

/**
 * Migration 0025's backfill of report_seat_days from the live bookings, read out of the migration
 * itself: the chain seed, which loads bookings with the triggers off, runs this same text (one
 * definition, decision 0104). An applied migration never changes (its checksum), so neither does
 * the statement found here.
 */
export function reportSeatDaysBackfill(): string {
  const text = fs.readFileSync(path.join(MIGRATIONS, MIGRATION), 'utf8');
  const statement = text.split('--> statement-breakpoint').find((s) => s.includes(MARK));
  if (!statement) throw new Error(`${MIGRATION} holds no backfill after "${MARK}"`);
  return statement.trim();
}
