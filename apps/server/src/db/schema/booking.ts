import { sql } from 'drizzle-orm';
import {
  boolean,
  char,
  date,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { calendars, locations } from './venue';

/** What a quote priced, kept on the checkout so processing charges exactly what was shown. */
export type CheckoutItem = {
  calendarId: number;
  slot: string;
  time: string;
  costCents: number;
  bookingFeeCents: number;
  /** This item's share of the total (after voucher and tax), what stays owed if unpaid. */
  amountCents: number;
};

export type CheckoutAmounts = {
  subtotalCents: number;
  discountCents: number;
  preTaxCents: number;
  salesTaxCents: number;
  totalCents: number;
  creditsUsing: number;
  creditsValueCents: number;
};

/**
 * A checkout's states, one path for every checkout (decision 0094):
 *
 *   quoted ──claim──▶ charging ──charge──▶ paid
 *                        │  ╲──declined──▶ failed (its bookings stay unpaid: an outstanding balance)
 *                        ▼
 *            awaiting_authentication ──passed──▶ paid
 *                        ╲──failed, or its hold expired──▶ released (bookings cancelled,
 *                                                          voucher and credits given back)
 *
 * - `quoted`: priced (quoteCheckout); holds nothing. A claim refused (a seat taken) leaves it so.
 * - `charging`: DESIGN §8's "claimed, seats held": its seats are booked unpaid, its voucher and
 *   credits redeemed (claimCheckout, one transaction). A checkout with nothing to pay goes
 *   straight to `paid` there.
 * - `awaiting_authentication`: the bank asked for 3-D Secure; the customer runs the challenge.
 * - `paid`, `failed`, `released`: ended, with the answer stored (`result`), replayed ever after.
 * - `refund_owed`: the payment went through after every seat it paid for was cancelled (while the
 *   bank checked it): the answer says so, and the money repair gives the charge back in full
 *   (`refundOwedCheckouts`, decision 0114); then `refunded`.
 *
 * A claimed checkout (`charging` or `awaiting_authentication`) is ended by `chargeAndFinish`,
 * whoever comes first: the request, its retry, the web's return from the challenge, the webhook,
 * a cancel of one of its bookings or the money repair; the key `checkout-{id}` and the stored
 * first answer make it exactly once.
 */
export const CHECKOUT_STATUSES = [
  'quoted',
  'charging',
  'awaiting_authentication',
  'paid',
  'failed',
  'released',
  'refund_owed',
  'refunded',
] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** The answer a processed checkout gave, replayed verbatim when it is processed again. */
export type CheckoutResult = { statusCode: number; body: Record<string, unknown> };

export const checkouts = pgTable(
  'checkouts',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Where the checkout is in its one path (CHECKOUT_STATUSES). */
    status: text({ enum: CHECKOUT_STATUSES }).notNull().default('quoted'),
    locationId: integer()
      .notNull()
      .references(() => locations.id),
    items: jsonb().$type<CheckoutItem[]>().notNull(),
    amounts: jsonb().$type<CheckoutAmounts>().notNull(),
    /** The quote response as shown to the customer. */
    quote: jsonb().$type<Record<string, unknown>>().notNull(),
    voucherCode: text(),
    result: jsonb().$type<CheckoutResult>(),
    chargeRef: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('checkouts_user').on(t.userId, t.createdAt),
    // The money repair's each-minute look for claimed checkouts and owed refunds reads only
    // these (0072, 0085, 0114).
    index('checkouts_claimed')
      .on(t.id)
      .where(sql`${t.status} in ('charging', 'awaiting_authentication', 'refund_owed')`),
  ],
);

/**
 * A booking confirmation owed (decisions 0059, 0102): written in the statement or transaction
 * that pays the booking, so it is as durable as the payment; the sender of any instance claims
 * it (`FOR UPDATE SKIP LOCKED`), mails it and deletes it in one transaction. A checkout's is
 * keyed by `checkoutId` (the sender reads what the mail says; `facts` unused, decision 0094); a
 * booking paid with a club subscription's credit has no checkout and stores its `facts` (the
 * PaidBooking the mail is read from).
 */
export const receiptsOwed = pgTable(
  'receipts_owed',
  {
    id: serial().primaryKey(),
    checkoutId: integer()
      .unique()
      .references(() => checkouts.id, { onDelete: 'cascade' }),
    facts: jsonb().$type<Record<string, unknown>>(),
    attempts: integer().notNull().default(0),
    /** When a sender may take it: now, or later after a failed attempt. */
    dueAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('receipts_owed_due').on(t.dueAt),
    check('receipts_owed_what', sql`${t.checkoutId} is not null or ${t.facts} is not null`),
  ],
);

/**
 * One seat for one half-hour. `slot` is the seat-local key, `time` the instant. Cancelling keeps
 * the row (history, checkouts) and frees the seat: uniqueness only counts live rows.
 */
export const reservations = pgTable(
  'reservations',
  {
    id: serial().primaryKey(),
    calendarId: integer()
      .notNull()
      .references(() => calendars.id),
    slot: text().notNull(),
    time: timestamp({ withTimezone: true }).notNull(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    /** Club subscription used (the club feature fills this in). */
    subscriptionId: integer(),
    paid: boolean().notNull().default(false),
    /** What stays owed while unpaid (seat, fee and tax share, after any voucher). */
    amountCents: integer().notNull().default(0),
    /** The booking fee inside `amountCents` (from its checkout item; 0 without one): reports. */
    bookingFeeCents: integer().notNull().default(0),
    /**
     * The sales tax inside `amountCents` of a desk booking (the planner's, priced by the one rule,
     * issue 41); 0 for a checkout's booking, whose tax is in its checkout's amounts.
     */
    taxCents: integer().notNull().default(0),
    isBlackout: boolean().notNull().default(false),
    notes: text().notNull().default(''),
    createdById: integer().references(() => users.id, { onDelete: 'set null' }),
    checkoutId: integer().references(() => checkouts.id, { onDelete: 'set null' }),
    /** The card charge that paid it (`charges.id`: checkout, desk or outstanding capture). */
    chargeId: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp({ withTimezone: true }),
    cancelledById: integer().references(() => users.id, { onDelete: 'set null' }),
    /** The desk's mark on the day: 'checked_in' or 'no_show' (null: neither yet). */
    attendance: text(),
  },
  (t) => [
    // The one rule that decides races for a seat, on any number of API instances.
    uniqueIndex('reservations_live_calendar_slot')
      .on(t.calendarId, t.slot)
      .where(sql`${t.cancelledAt} is null`),
    index('reservations_calendar_time').on(t.calendarId, t.time),
    index('reservations_user_time').on(t.userId, t.time),
    index('reservations_time').on(t.time),
    index('reservations_slot_prefix').on(t.slot.op('text_pattern_ops')),
    // A checkout's bookings (paying, refunding, the receipt): without it each was a scan of
    // every booking, a checkout's cost growing with the venue's history (decision 0069).
    index('reservations_checkout')
      .on(t.checkoutId)
      .where(sql`${t.checkoutId} is not null`),
    // Top customers (decision 0044): paid live bookings of a seat over a period, from the index.
    index('reservations_paid_report')
      .on(t.calendarId, t.slot, t.userId, t.amountCents)
      .where(sql`${t.paid} and ${t.cancelledAt} is null and not ${t.isBlackout}`),
    index('reservations_live_no_shows')
      .on(t.calendarId, t.slot)
      .where(sql`${t.attendance} = 'no_show' and ${t.cancelledAt} is null and not ${t.isBlackout}`),
  ],
);

/** A gift voucher; `code` is stored uppercase without separators. */
export const vouchers = pgTable(
  'vouchers',
  {
    id: serial().primaryKey(),
    code: text().notNull().unique(),
    amountCents: integer().notNull(),
    balanceCents: integer().notNull(),
    /** ISO 4217: the venue's default currency when it was sold; spent only in that currency. */
    currency: char({ length: 3 }).notNull().default('USD'),
    /** The buyer of a purchased voucher, or the staff member who issued one. */
    createdById: integer().references(() => users.id, { onDelete: 'set null' }),
    /** `purchase` (bought with a card) or `staff` (issued from the back office). */
    source: text().notNull().default('staff'),
    recipientEmail: text().notNull().default(''),
    recipientName: text().notNull().default(''),
    /** The purchaser's own name for the recipient (gift purchases). */
    fromName: text().notNull().default(''),
    message: text().notNull().default(''),
    /** Last day it can be spent, in the venue's time zone; null: never expires. */
    expiresOn: date({ mode: 'string' }),
    voidedAt: timestamp({ withTimezone: true }),
    voidedById: integer().references(() => users.id, { onDelete: 'set null' }),
    voidReason: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('vouchers_balance_not_negative', sql`${t.balanceCents} >= 0`),
    check('vouchers_source', sql`${t.source} in ('staff', 'purchase')`),
  ],
);

/**
 * A gift voucher bought with the card, the buyer on the page (decision 0095): `code` is the
 * voucher's once paid (its charge's key is `voucher-{code}`), so the voucher row exists exactly
 * when the purchase is `paid`. `awaiting_authentication`: the bank's challenge is open; whoever
 * asks first once it ended (the web's return, the webhook, a retry) finishes it, once.
 */
export const voucherPurchases = pgTable(
  'voucher_purchases',
  {
    id: serial().primaryKey(),
    buyerId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text().notNull().unique(),
    amountCents: integer().notNull(),
    currency: char({ length: 3 }).notNull(),
    recipientEmail: text().notNull().default(''),
    fromName: text().notNull().default(''),
    message: text().notNull().default(''),
    status: text().$type<VoucherPurchaseStatus>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'voucher_purchases_status',
      sql`${t.status} in ('awaiting_authentication', 'paid', 'failed')`,
    ),
  ],
);
export type VoucherPurchaseStatus = 'awaiting_authentication' | 'paid' | 'failed';

export const voucherRedemptions = pgTable(
  'voucher_redemptions',
  {
    id: serial().primaryKey(),
    voucherId: integer()
      .notNull()
      .references(() => vouchers.id, { onDelete: 'cascade' }),
    checkoutId: integer().references(() => checkouts.id, { onDelete: 'set null' }),
    amountCents: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('voucher_redemptions_checkout').on(t.checkoutId)],
);

/**
 * A reminder mailed before a customer's visit (issue 45, decision 0119): one row per visit and
 * kind, written in the transaction that sends it, so a visit is reminded once across instances
 * and restarts. A visit is `visitsOf`'s (touching reservations at one location), keyed by its
 * customer, location and start.
 */
export const visitReminders = pgTable(
  'visit_reminders',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locationId: integer()
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    visitStart: timestamp({ withTimezone: true }).notNull(),
    /** `first` (reminder_hours before) or `second` (second_reminder_hours before). */
    kind: text({ enum: ['first', 'second'] }).notNull(),
    sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('visit_reminders_once').on(t.userId, t.locationId, t.visitStart, t.kind)],
);
