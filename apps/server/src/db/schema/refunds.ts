import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { reservations } from './booking';
import { charges } from './payments';
import { calendars, locations } from './venue';

/**
 * What went back to a customer when one reservation was cancelled (or its driver did not show)
 * (docs/decisions/0027-cancellations-and-refunds.md). One row per reservation at most: two
 * cancels racing for one booking give one refund. Credits and voucher value go back in the
 * cancel's own transaction; the card part is sent to the provider afterwards with the key
 * `refund-{id}-{attempts}`, so a retry after a decline is a new attempt and a repeat of the same
 * attempt refunds once.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: serial().primaryKey(),
    reservationId: integer().notNull(),
    /**
     * `cancel`: the one refund of a cancel or no-show; `move`: the price difference given back
     * when the booking moved to a cheaper seat (docs/decisions/0034-refunds-rest.md), any number.
     */
    kind: text().$type<RefundKind>().notNull().default('cancel'),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    checkoutId: integer(),
    /** `policy` (free window or late share), `full`, `none` (staff, with a reason), `no_show`. */
    choice: text().$type<RefundChoice>().notNull(),
    reason: text().notNull().default(''),
    /** What the reservation was paid with (its share of the checkout). */
    paidCents: integer().notNull(),
    keptCents: integer().notNull(),
    /** Back to the card (tax included); part of it is tax, part fees. */
    cardCents: integer().notNull(),
    taxCents: integer().notNull(),
    feeCents: integer().notNull(),
    credits: integer().notNull(),
    creditsCents: integer().notNull(),
    /** `returned` | `waiting` (membership not in good standing) | `to_card` | `none`. */
    creditsStatus: text().$type<CreditsStatus>().notNull().default('none'),
    voucherCents: integer().notNull(),
    voucherId: integer(),
    /** The charge the card part goes back to (`charges.id`), null without a card part. */
    chargeId: integer(),
    /** Card part: `none` | `pending` (not sent or provider unreachable) | `succeeded` | `failed`. */
    cardStatus: text().$type<CardRefundStatus>().notNull().default('none'),
    attempts: integer().notNull().default(0),
    lastError: text().notNull().default(''),
    providerRef: text(),
    /**
     * A further card part of the refund `partOf` (docs/decisions/0040-move-to-a-dearer-seat.md):
     * a booking paid by several charges (its checkout's and those of moves to dearer seats) gets
     * its card part back from each charge, one row per charge, each sent and retried on its own.
     * Null on the refund itself (which carries the credits, the voucher and its own card part).
     */
    partOf: integer(),
    calendarId: integer().references(() => calendars.id),
    locationId: integer().references(() => locations.id),
    slot: text().notNull(),
    createdById: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refunds_one_cancel_per_reservation')
      .on(t.reservationId)
      .where(sql`${t.kind} = 'cancel' and ${t.partOf} is null`),
    index('refunds_part_of').on(t.partOf),
    index('refunds_user').on(t.userId, t.createdAt),
    index('refunds_charge').on(t.chargeId),
    check(
      'refunds_not_negative',
      sql`${t.cardCents} >= 0 and ${t.voucherCents} >= 0 and ${t.credits} >= 0`,
    ),
    check('refunds_within_paid', sql`${t.keptCents} >= 0 and ${t.keptCents} <= ${t.paidCents}`),
  ],
);

export type RefundKind = 'cancel' | 'move';

/**
 * The price difference of a move to a dearer seat, charged to the customer's card
 * (docs/decisions/0040-move-to-a-dearer-seat.md): part of what the booking is paid with, so a
 * later cancel or move to a cheaper seat gives it back in proportion, from this charge.
 */
export const moveCharges = pgTable(
  'move_charges',
  {
    id: serial().primaryKey(),
    reservationId: integer()
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    chargeId: integer()
      .notNull()
      .unique()
      .references(() => charges.id),
    /** What the card was charged, tax included; part of it is tax, part fees. */
    cardCents: integer().notNull(),
    taxCents: integer().notNull(),
    feeCents: integer().notNull(),
    fromCalendarId: integer(),
    fromSlot: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('move_charges_reservation').on(t.reservationId),
    check(
      'move_charges_parts',
      sql`${t.cardCents} > 0 and ${t.taxCents} >= 0 and ${t.feeCents} >= 0 and ${t.taxCents} <= ${t.cardCents}`,
    ),
  ],
);
export type RefundChoice = 'policy' | 'full' | 'none' | 'no_show';
/** `to_card`: the member left while the credits waited; their value went to the card instead. */
export type CreditsStatus = 'returned' | 'waiting' | 'to_card' | 'none';
export type CardRefundStatus = 'none' | 'pending' | 'succeeded' | 'failed';

/**
 * "Tell me when a seat frees up" for one location's slot. Served in order of `id`; when a seat
 * frees, the first waiting entry is offered it and the seat is held for it until `holdUntil`.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locationId: integer()
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    slot: text().notNull(),
    /** `waiting` → `offered` (seat held) → `booked` | `expired`; or `notified` (told, no hold). */
    status: text().notNull().default('waiting'),
    heldCalendarId: integer(),
    holdUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('waitlist_one_per_user_slot').on(t.userId, t.locationId, t.slot),
    index('waitlist_location_slot').on(t.locationId, t.slot, t.id),
  ],
);
