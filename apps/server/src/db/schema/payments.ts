import { sql } from 'drizzle-orm';
import {
  boolean,
  char,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { DeskMethod } from '@paddock/contract/charges';
import { users } from './accounts';

/** The saved card of a user: provider references and display details only, never a number. */
export const cards = pgTable('cards', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: text().notNull(),
  customerRef: text().notNull(),
  paymentMethodRef: text().notNull(),
  brand: text().notNull(),
  last4: text().notNull(),
  expMonth: integer().notNull(),
  expYear: integer().notNull(),
  postalCode: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every attempt to charge a saved card, whatever the provider said (the spec's Charge entity).
 * `idempotencyKey` is unique: the same purchase is recorded, and charged, at most once.
 */
export const charges = pgTable(
  'charges',
  {
    id: serial().primaryKey(),
    // Kept when a user is deleted: it is the venue's payment history.
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer().notNull(),
    /** ISO 4217 code the card was charged in (the location's, or the venue default's). */
    currency: char({ length: 3 }).notNull().default('USD'),
    notes: text().notNull().default(''),
    /** The provider's message when the charge failed; '' when it succeeded. */
    errors: text().notNull().default(''),
    receiptUrl: text(),
    /** The provider's reference (local `ch_…`, Stripe `pi_…`); null when nothing reached it. */
    chargeRef: text(),
    idempotencyKey: text().notNull().unique(),
    /** What was bought: booking, club, voucher, capture, desk… */
    kind: text().notNull(),
    /**
     * How money taken at the desk was paid (`cash`, `terminal`, `bank_transfer`, `other`), on the
     * desk payment and on its refunds; null for the card provider's charges (docs/decisions/0083).
     */
    method: text().$type<DeskMethod>(),
    /** The staff member who took (or gave back) desk money; null for online charges. */
    takenById: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('charges_user_created').on(t.userId, t.createdAt),
    // Stripe's events name a charge or a refund by its reference (decision 0084).
    index('charges_charge_ref').on(t.chargeRef),
    // Built concurrently by db/concurrent-indexes.ts, not by its migration (decision 0092).
    index('charges_created').on(t.createdAt),
  ],
);

/*
 * The local provider's own records: what Stripe would keep on its side. Card numbers are never
 * stored, only display details and the behaviour the test number asked for.
 */

/** Single-use card tokens from POST /api/payments/local/tokens (Stripe's `tok_…`). */
export const localTokens = pgTable('local_tokens', {
  id: text().primaryKey(),
  brand: text().notNull(),
  last4: text().notNull(),
  expMonth: integer().notNull(),
  expYear: integer().notNull(),
  postalCode: text(),
  /** Decline message when the card is attached (4000 0000 0000 0002), else null. */
  attachFailure: text(),
  /** Decline message for every charge (4000 0000 0000 0341, …9995), else null. */
  chargeFailure: text(),
  /** Decline message for every refund (4000 0000 0000 5126), else null. */
  refundFailure: text(),
  /** When the bank asks for 3-D Secure (local-provider.ts `Authentication`), else null. */
  authentication: text(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const localPaymentMethods = pgTable('local_payment_methods', {
  id: text().primaryKey(),
  brand: text().notNull(),
  last4: text().notNull(),
  expMonth: integer().notNull(),
  expYear: integer().notNull(),
  postalCode: text(),
  /** Decline message for every charge of this card, else null. */
  chargeFailure: text(),
  /** Decline message for every refund to this card, else null. */
  refundFailure: text(),
  /** When the bank asks for 3-D Secure (local-provider.ts `Authentication`), else null. */
  authentication: text(),
  /** Null once detached, like Stripe's payment methods. */
  customerId: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const localCharges = pgTable('local_charges', {
  id: text().primaryKey(),
  idempotencyKey: text().unique(),
  customerId: text().notNull(),
  paymentMethodId: text().notNull(),
  amountCents: integer().notNull(),
  currency: char({ length: 3 }).notNull().default('USD'),
  description: text().notNull().default(''),
  /** `succeeded`, `failed`, or `requires_action` until its challenge page is answered. */
  status: text().notNull(),
  failureMessage: text(),
  /** Where the challenge page sends the customer back (requires_action only). */
  returnUrl: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The local provider's SetupIntents (Stripe's `seti_…`): a card being saved for off-session use.
 * The payment method exists once it `succeeded`; `requires_action` waits for the challenge page.
 */
export const localSetupIntents = pgTable('local_setup_intents', {
  id: text().primaryKey(),
  tokenId: text().notNull(),
  customerId: text().notNull(),
  /** Whose card it is, as the caller named it (`user-12`): checked when the setup is finished. */
  reference: text().notNull(),
  status: text().notNull(),
  failureMessage: text(),
  paymentMethodId: text(),
  returnUrl: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The local provider's refunds (Stripe's `re_…`): never more than the charge, once per key. */
export const localRefunds = pgTable('local_refunds', {
  id: text().primaryKey(),
  idempotencyKey: text().notNull().unique(),
  chargeId: text().notNull(),
  amountCents: integer().notNull(),
  status: text().notNull(),
  failureMessage: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every verified Stripe webhook event, stored once by its id (a redelivery inserts nothing) and
 * handled after the answer (decision 0084). `handledAt` null: still to handle; a handler that
 * failed leaves its error and is tried again `claimedUntil` later.
 */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text().primaryKey(),
    type: text().notNull(),
    livemode: boolean().notNull(),
    payload: jsonb().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp({ withTimezone: true }),
    attempts: integer().notNull().default(0),
    lastError: text().notNull().default(''),
    handledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('stripe_events_unhandled')
      .on(t.receivedAt)
      .where(sql`${t.handledAt} is null`),
  ],
);

/**
 * A chargeback on one of our charges (Stripe's `dp_…`): the flag on the customer (any dispute
 * not `won`/`lost`… is open) and on the bookings the charge paid (`reservations.charge_id`).
 */
export const paymentDisputes = pgTable(
  'payment_disputes',
  {
    id: serial().primaryKey(),
    disputeRef: text().notNull().unique(),
    chargeId: integer()
      .notNull()
      .references(() => charges.id),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer().notNull(),
    currency: char({ length: 3 }).notNull(),
    reason: text().notNull(),
    /** Stripe's dispute status: `needs_response`, `under_review`, `won`, `lost`… */
    status: text().notNull(),
    openedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('payment_disputes_user').on(t.userId, t.openedAt),
    index('payment_disputes_charge').on(t.chargeId),
  ],
);

/**
 * Every on-session charge the bank asked the customer to authenticate (voucher purchase, club
 * enrolment and cancellation charge-back, outstanding balance, checkout), by our charge key: the
 * money repair cancels at the provider those nobody answered within the hold (decision 0100).
 */
export const paymentChallenges = pgTable(
  'payment_challenges',
  {
    id: serial().primaryKey(),
    /** Ours, as in `charges` (`voucher-…`, `club-…`, `outstanding-…`, `checkout-…`). */
    idempotencyKey: text().notNull().unique(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    kind: text().notNull(),
    /** The provider's intent waiting for the challenge (Stripe `pi_…`, local `ch_…`). */
    intentRef: text().notNull(),
    amountCents: integer().notNull(),
    currency: char({ length: 3 }).notNull(),
    notes: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When the repair cancelled it at the provider; a later completion cannot charge. */
    releasedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('payment_challenges_open')
      .on(t.createdAt)
      .where(sql`released_at is null`),
  ],
);
