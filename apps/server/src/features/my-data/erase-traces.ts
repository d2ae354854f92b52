import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { DELETED_DRIVER_NAME } from '@paddock/contract/my-data';
import type { VenueSettings } from '@paddock/contract/venue';
import { auditEvents } from '../../db/schema/audit';
import {
  checkouts,
  reservations,
  visitReminders,
  voucherPurchases,
  vouchers,
} from '../../db/schema/booking';
import { outboxMessages } from '../../db/schema/content';
import { laps, personalBests, raceResults } from '../../db/schema/laps';
import { waitlistEntries } from '../../db/schema/refunds';
import { rateLimitCounters } from '../../db/schema/security';
import type { Queryable } from '../../plugins/payments/charge-card';
import type { UserRow } from '../accounts/user-view';

/** The person's own words and names, as they may stand inside other rows (audit trail). */
function personalValues(row: UserRow): string[] {
  const name = `${row.firstName} ${row.lastName}`.trim();
  return [
    row.email,
    row.username,
    row.firstName,
    row.lastName,
    name,
    row.contactPhone,
    row.zipCode,
    row.racerName,
    row.socialInstagram,
    row.simGuid ?? '',
  ].filter((v, i, all) => v.trim().length > 1 && all.indexOf(v) === i);
}

/**
 * Removes what the account's other rows hold of the person, inside the deletion's transaction
 * (decision 0124): mails sent to them, their comments on bookings, gift messages signed by them,
 * login counters keyed by their name, reminders and waitlist places, their name in the audit
 * trail (the entries stay, the values read "[deleted]"), and their laps: off the boards, or kept
 * as "Deleted driver" (the venue's `deleted_driver_laps`). Money rows hold no personal field.
 */
export async function eraseTraces(
  tx: Queryable,
  row: UserRow,
  lapsRule: VenueSettings['deleted_driver_laps'],
) {
  const id = row.id;
  if (row.email)
    await tx.delete(outboxMessages).where(sql`lower(${outboxMessages.to}) = lower(${row.email})`);
  for (const value of [row.email, row.username].filter(Boolean))
    await tx
      .delete(rateLimitCounters)
      .where(sql`strpos(lower(${rateLimitCounters.key}), lower(${value})) > 0`);
  await tx.update(reservations).set({ notes: '' }).where(eq(reservations.userId, id));
  const bought = await tx
    .update(voucherPurchases)
    .set({ fromName: '', message: '' })
    .where(eq(voucherPurchases.buyerId, id))
    .returning({ code: voucherPurchases.code });
  if (bought.length > 0)
    await tx
      .update(vouchers)
      .set({ fromName: '', message: '' })
      .where(
        inArray(
          vouchers.code,
          bought.map((b) => b.code),
        ),
      );
  await tx.delete(visitReminders).where(eq(visitReminders.userId, id));
  await tx.delete(waitlistEntries).where(eq(waitlistEntries.userId, id));
  if (lapsRule === 'remove') {
    await tx.delete(personalBests).where(eq(personalBests.userId, id));
    await tx.delete(laps).where(eq(laps.userId, id));
  } else {
    await tx
      .update(laps)
      .set({ driverName: DELETED_DRIVER_NAME, driverGuid: '' })
      .where(eq(laps.userId, id));
  }
  await tx
    .update(raceResults)
    .set({ driverName: DELETED_DRIVER_NAME, driverGuid: '' })
    .where(eq(raceResults.userId, id));
  await redactJson(tx, id, personalValues(row));
}

/** `column` with each string value equal to one of `values` read "[deleted]". */
function redacted(column: AnyPgColumn, values: string[]): SQL {
  let text = sql`${column}::text`;
  for (const value of values)
    text = sql`replace(${text}, to_jsonb(${value}::text)::text, '"[deleted]"')`;
  return sql`(${text})::jsonb`;
}

/**
 * The person's values in the JSON other rows keep: the audit trail about them (the entries
 * stay, the values read "[deleted]") and their checkouts' stored answers and quotes.
 */
async function redactJson(tx: Queryable, id: number, values: string[]) {
  if (values.length === 0) return;
  await tx
    .update(auditEvents)
    .set({
      before: redacted(auditEvents.before, values),
      after: redacted(auditEvents.after, values),
    })
    .where(
      or(
        eq(auditEvents.subjectUserId, id),
        and(eq(auditEvents.targetType, 'user'), eq(auditEvents.targetId, id)),
      ),
    );
  await tx
    .update(checkouts)
    .set({ result: redacted(checkouts.result, values), quote: redacted(checkouts.quote, values) })
    .where(eq(checkouts.userId, id));
}
