import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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

/** The local provider's own records: what Stripe would keep on its side. */
export const localPaymentMethods = pgTable('local_payment_methods', {
  id: text().primaryKey(),
  brand: text().notNull(),
  last4: text().notNull(),
  expMonth: integer().notNull(),
  expYear: integer().notNull(),
  postalCode: text(),
  declines: boolean().notNull().default(false),
  customerId: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const localCharges = pgTable('local_charges', {
  id: text().primaryKey(),
  idempotencyKey: text().unique(),
  customerId: text().notNull(),
  paymentMethodId: text().notNull(),
  amountCents: integer().notNull(),
  description: text().notNull().default(''),
  status: text().notNull(),
  failureMessage: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
