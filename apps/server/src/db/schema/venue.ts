import {
  boolean,
  char,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** Weekly opening hours: weekday 1 (Mon) … 7 (Sun) → ranges of local "HH:mm" (close may pass midnight). */
export type OpeningHours = Record<string, { open: string; close: string }[]>;
/** Date overrides: "YYYY-MM-DD" → ranges, an empty list meaning closed. */
export type SpecialHours = Record<string, { open: string; close: string }[]>;

export const locations = pgTable('locations', {
  id: serial().primaryKey(),
  name: text().notNull(),
  timezone: text().notNull().default('America/Los_Angeles'),
  address: text().notNull().default(''),
  /** ISO 4217 code this location prices and charges in (docs/decisions/0039). */
  currency: char({ length: 3 }).notNull().default('USD'),
  salesTaxRatePercent: numeric({ precision: 6, scale: 3 }).notNull().default('0'),
  bookingFeeCents: integer().notNull().default(0),
  bookingFeesThreshold: integer().notNull().default(4),
  postBookingUrl: text().notNull().default(''),
  /** Overrides of the venue's cancellation policy for this location (null: the venue's). */
  cancellationWindowHours: integer(),
  lateCancellationKeepPercent: integer(),
  openingHours: jsonb().$type<OpeningHours>().notNull().default({}),
  specialHours: jsonb().$type<SpecialHours>().notNull().default({}),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const calendarTypes = pgTable('calendar_types', {
  id: serial().primaryKey(),
  name: text().notNull(),
  image: text().notNull().default(''),
  description: text().notNull().default(''),
  isVr: boolean().notNull().default(false),
  /** The shortest booking of a seat of this type, in minutes (whole half-hours; 0089). */
  minMinutes: integer().notNull().default(30),
});

/** A calendar is one simulator seat. */
export const calendars = pgTable('calendars', {
  id: serial().primaryKey(),
  name: text().notNull(),
  typeId: integer()
    .notNull()
    .references(() => calendarTypes.id),
  locationId: integer()
    .notNull()
    .references(() => locations.id),
  costCents: integer().notNull().default(0),
  costUnit: text().notNull().default('30 minutes'),
  image: text().notNull().default(''),
  active: boolean().notNull().default(true),
  sortOrder: integer().notNull().default(0),
  /** The SteamID64 of the Steam account this seat's PC plays on (ACC's entry list ties the
   *  race number to it: `playerID` S<id>); null when not set (decision 0118). */
  steamId: text(),
});
