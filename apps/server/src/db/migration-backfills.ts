import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './client';

/**
 * The statement of a migration that starts with `mark`, read out of the migration itself: the
 * chain seed, which loads bulk tables with the triggers off, runs the same text the migration ran
 * (one definition, decision 0104). An applied migration never changes (its checksum), so neither
 * does the statement found here. The migration is found by its name after the number, which the
 * lead renumbers at merge.
 */
function backfillOf(name: string, mark: string): string {
  const file = fs.readdirSync(MIGRATIONS).find((f) => new RegExp(`^\\d{4}_${name}\\.sql$`).test(f));
  if (!file) throw new Error(`no migration named ${name}`);
  const text = fs.readFileSync(path.join(MIGRATIONS, file), 'utf8');
  const statement = text.split('--> statement-breakpoint').find((s) => s.includes(mark));
  if (!statement) throw new Error(`${file} holds no backfill after "${mark}"`);
  return statement.trim();
}

/** Migration 0025's backfill of report_seat_days from the live bookings (decision 0044). */
export const reportSeatDaysBackfill = () =>
  backfillOf('report_seat_days_sync', '-- The bookings already there.');

/** The backfill of report_charge_quarters from the charges (decision 0107). */
export const reportChargeQuartersBackfill = () =>
  backfillOf('report_charge_quarters_sync', '-- The charges already there');

/** The count of audit_totals from the audit rows (decision 0108). */
export const auditTotalsBackfill = () =>
  backfillOf('audit_totals_sync', '-- The audit rows already there.');
