import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { MyDataExport } from '@paddock/contract/my-data';
import { formatMoney } from '@paddock/contract/money-format';
import { auditEvents } from '../../db/schema/audit';
import {
  checkouts,
  reservations,
  voucherPurchases,
  voucherRedemptions,
  vouchers,
} from '../../db/schema/booking';
import { clubMemberships, creditBalances, creditEntries } from '../../db/schema/club';
import { outboxMessages } from '../../db/schema/content';
import { cars, laps, raceResults, tracks } from '../../db/schema/laps';
import { cards, charges } from '../../db/schema/payments';
import { refunds, waitlistEntries } from '../../db/schema/refunds';
import { calendars, locations } from '../../db/schema/venue';
import type { Db } from '../../db/client';
import { getSettings } from '../../plugins/settings';
import type { UserRow } from '../accounts/user-view';
import { plural } from './counted';

// "Download my data" (issue 45, decision 0124): everything Paddock holds about one person, as
// records (keys in snake_case, times in ISO 8601) and the same in words (`summary`), in one file.

type Row = Record<string, unknown>;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A stored row as the file shows it: snake_case keys, instants as ISO strings. */
function plain(row: object): Row {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [snake(k), v instanceof Date ? v.toISOString() : v]),
  );
}

/** Never in the file: secrets that prove who someone is, not facts about them. */
const SECRET_FIELDS = new Set(['passwordHash', 'sessionVersion', 'feedTokenHash']);

function profileOf(row: UserRow): Row {
  const kept = Object.entries(row).filter(([k]) => !SECRET_FIELDS.has(k) && k !== 'visitReminders');
  return plain(Object.fromEntries(kept));
}

/** Everything about `row`'s person. */
export async function exportMyData(db: Db, row: UserRow, now = new Date()): Promise<MyDataExport> {
  const id = row.id;
  const settings = await getSettings(db);
  const bookings = await db
    .select({
      id: reservations.id,
      location: locations.name,
      seat: calendars.name,
      time: reservations.time,
      slot: reservations.slot,
      amountCents: reservations.amountCents,
      currency: locations.currency,
      paid: reservations.paid,
      notes: reservations.notes,
      attendance: reservations.attendance,
      createdAt: reservations.createdAt,
      cancelledAt: reservations.cancelledAt,
    })
    .from(reservations)
    .innerJoin(calendars, eq(calendars.id, reservations.calendarId))
    .innerJoin(locations, eq(locations.id, calendars.locationId))
    .where(eq(reservations.userId, id))
    .orderBy(asc(reservations.time));
  const payments = await db
    .select()
    .from(charges)
    .where(eq(charges.userId, id))
    .orderBy(asc(charges.createdAt));
  const refundRows = await db
    .select()
    .from(refunds)
    .where(eq(refunds.userId, id))
    .orderBy(asc(refunds.createdAt));
  const card = await db
    .select({
      brand: cards.brand,
      last4: cards.last4,
      expMonth: cards.expMonth,
      expYear: cards.expYear,
      postalCode: cards.postalCode,
      createdAt: cards.createdAt,
    })
    .from(cards)
    .where(eq(cards.userId, id));
  const memberships = await db
    .select()
    .from(clubMemberships)
    .where(eq(clubMemberships.userId, id))
    .orderBy(asc(clubMemberships.createdAt));
  const credits = await db
    .select()
    .from(creditEntries)
    .where(eq(creditEntries.userId, id))
    .orderBy(asc(creditEntries.createdAt));
  const [balance] = await db
    .select({ balance: creditBalances.balance })
    .from(creditBalances)
    .where(eq(creditBalances.userId, id));
  const bought = await db
    .select()
    .from(voucherPurchases)
    .where(eq(voucherPurchases.buyerId, id))
    .orderBy(asc(voucherPurchases.createdAt));
  const redeemed = await db
    .select({
      code: vouchers.code,
      amountCents: voucherRedemptions.amountCents,
      currency: vouchers.currency,
      checkoutId: voucherRedemptions.checkoutId,
      createdAt: voucherRedemptions.createdAt,
    })
    .from(voucherRedemptions)
    .innerJoin(vouchers, eq(vouchers.id, voucherRedemptions.voucherId))
    .innerJoin(checkouts, eq(checkouts.id, voucherRedemptions.checkoutId))
    .where(eq(checkouts.userId, id))
    .orderBy(asc(voucherRedemptions.createdAt));
  const waitlist = await db.select().from(waitlistEntries).where(eq(waitlistEntries.userId, id));
  const lapRows = await db
    .select({
      id: laps.id,
      track: tracks.name,
      car: cars.name,
      sim: laps.sim,
      lapMs: laps.lapMs,
      sectorsMs: laps.sectorsMs,
      valid: laps.valid,
      driverName: laps.driverName,
      driverGuid: laps.driverGuid,
      recordedAt: laps.recordedAt,
    })
    .from(laps)
    .innerJoin(tracks, eq(tracks.id, laps.trackId))
    .innerJoin(cars, eq(cars.id, laps.carId))
    .where(eq(laps.userId, id))
    .orderBy(asc(laps.recordedAt));
  const results = await db
    .select({
      sessionId: raceResults.sessionId,
      position: raceResults.position,
      driverName: raceResults.driverName,
      teamName: raceResults.teamName,
      bestLapMs: raceResults.bestLapMs,
      laps: raceResults.laps,
    })
    .from(raceResults)
    .where(eq(raceResults.userId, id));
  const mails = row.email
    ? await db
        .select()
        .from(outboxMessages)
        .where(sql`lower(${outboxMessages.to}) = lower(${row.email})`)
        .orderBy(asc(outboxMessages.createdAt))
    : [];
  const history = await db
    .select({
      at: auditEvents.at,
      action: auditEvents.action,
      byYou: sql<boolean>`${auditEvents.actorId} = ${id}`,
      before: auditEvents.before,
      after: auditEvents.after,
    })
    .from(auditEvents)
    .where(
      or(
        eq(auditEvents.subjectUserId, id),
        and(eq(auditEvents.targetType, 'user'), eq(auditEvents.targetId, id)),
      ),
    )
    .orderBy(asc(auditEvents.at));
  const spent = payments
    .filter((p) => p.errors === '' && p.chargeRef !== null)
    .reduce((sum, p) => sum + p.amountCents, 0);
  const upcoming = bookings.filter((b) => !b.cancelledAt && b.time > now).length;
  const summary = [
    `This file holds everything ${settings.company_name} keeps about ${row.firstName || row.username} (${row.email || 'no e-mail'}), as of ${now.toISOString()}.`,
    `Account: user name ${row.username}, name ${`${row.firstName} ${row.lastName}`.trim() || '(none)'}, phone ${row.contactPhone || '(none)'}, racer name ${row.racerName || '(none)'}, joined ${row.createdAt.toISOString().slice(0, 10)}.`,
    `Bookings: ${plural(bookings.length, 'booking')}, ${upcoming} still ahead.`,
    `Payments: ${plural(payments.length, 'charge')} (${formatMoney(spent, settings.default_currency)} taken in all), ${plural(refundRows.length, 'refund')}.`,
    card.length > 0 ? `Saved card: ${card[0].brand} ending ${card[0].last4}.` : 'Saved card: none.',
    memberships.length > 0
      ? `${settings.club_name}: ${plural(memberships.length, 'membership')}, the latest ${memberships.at(-1)!.status}; credit balance ${balance?.balance ?? 0}.`
      : `${settings.club_name}: never a member.`,
    `Gift vouchers: ${bought.length} bought, ${plural(redeemed.length, 'redemption')} on your bookings.`,
    `Laps: ${plural(lapRows.length, 'lap')}; race results: ${results.length}.`,
    `Mails we sent you: ${mails.length}.`,
    `Settings: visit reminders ${row.visitReminders ? 'on' : 'off'}.`,
  ];
  return {
    format: 'paddock-my-data-1',
    generated_at: now.toISOString(),
    venue: settings.company_name,
    summary,
    profile: profileOf(row),
    settings: { visit_reminders: row.visitReminders },
    bookings: bookings.map(plain),
    payments: payments.map((p) => plain({ ...p, idempotencyKey: undefined })),
    refunds: refundRows.map(plain),
    saved_card: card.map(plain),
    club_memberships: memberships.map(plain),
    club_credits: [
      ...credits.map(plain),
      ...(balance ? [{ balance: balance.balance, kind: 'balance' }] : []),
    ],
    vouchers_bought: bought.map(plain),
    vouchers_redeemed: redeemed.map(plain),
    waitlist: waitlist.map(plain),
    laps: lapRows.map(plain),
    race_results: results.map(plain),
    mails: mails.map(plain),
    account_history: history.map(plain),
  };
}
