import { DateTime } from 'luxon';

/**
 * Monthly billing dates. A membership charges on its cycle day (the day of month it started);
 * a month without that day charges on its last day, and the next month goes back to the cycle
 * day: 31 Jan → 28/29 Feb → 31 Mar. Dates are venue-local `YYYY-MM-DD`.
 */

/** The venue-local calendar date of an instant. */
export function localDate(now: Date, zone: string): string {
  return DateTime.fromJSDate(now, { zone }).toISODate()!;
}

export function dayOfMonth(isoDate: string): number {
  return DateTime.fromISO(isoDate, { zone: 'UTC' }).day;
}

/** The cycle date in the month after `fromIsoDate`'s month. */
export function nextCycleDate(cycleDay: number, fromIsoDate: string): string {
  const month = DateTime.fromISO(fromIsoDate, { zone: 'UTC' }).startOf('month').plus({ months: 1 });
  return month.set({ day: Math.min(cycleDay, month.daysInMonth!) }).toISODate()!;
}
