import { DateTime } from 'luxon';

/**
 * The cancellation policy in force for one booking: free until `windowHours` before the slot
 * starts; later (and no-shows) the venue keeps `lateKeepPercent` of what was paid.
 */
export type CancellationPolicy = { windowHours: number; lateKeepPercent: number };

/**
 * The last instant a cancellation is free. Counted in real elapsed hours before the slot's
 * instant, not in wall-clock hours: "24 hours before" a 10:00 slot the day after a DST change
 * is 11:00 or 09:00 local the day before, and it is the same instant whatever the zone.
 */
export function freeUntil(slotStart: Date, policy: CancellationPolicy): Date {
  return new Date(slotStart.getTime() - policy.windowHours * 3_600_000);
}

/** Cancelling at `now` is free up to and including the deadline. */
export function isFreeCancellation(
  slotStart: Date,
  policy: CancellationPolicy,
  now: Date,
): boolean {
  return now.getTime() <= freeUntil(slotStart, policy).getTime();
}

/** The deadline as the customer reads it: local time at the venue, with its zone. */
export function describeDeadline(slotStart: Date, policy: CancellationPolicy, zone: string) {
  return DateTime.fromJSDate(freeUntil(slotStart, policy), { zone }).toFormat(
    "ccc, LLL d, yyyy 'at' h:mm a ZZZZ",
  );
}
