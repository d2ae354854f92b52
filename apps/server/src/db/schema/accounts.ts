import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  type AnyPgColumn,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { locations } from './venue';

type SearchColumns = {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  email: AnyPgColumn;
  username: AnyPgColumn;
  racerName: AnyPgColumn;
  contactPhone: AnyPgColumn;
};

/**
 * The text the staff user search matches (ILIKE), written once so the query and its trigram
 * index use the same expression. The phone also appears as digits only, so "5551234" finds
 * "(555) 123-4…".
 */
export function userSearchText(t: SearchColumns) {
  return sql`(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email} || ' ' || ${t.username} || ' ' || ${t.racerName} || ' ' || ${t.contactPhone} || ' ' || regexp_replace(${t.contactPhone}, '[^0-9+]', '', 'g'))`;
}

export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    username: text().notNull(),
    email: text().notNull().default(''),
    passwordHash: text().notNull(),
    isOnboarded: boolean().notNull().default(false),
    isStaff: boolean().notNull().default(false),
    isSuperuser: boolean().notNull().default(false),
    isActive: boolean().notNull().default(true),
    firstName: text().notNull().default(''),
    lastName: text().notNull().default(''),
    contactPhone: text().notNull().default(''),
    zipCode: text().notNull().default(''),
    racerName: text().notNull().default(''),
    flagCode: text().notNull().default(''),
    socialInstagram: text().notNull().default(''),
    locationId: integer().references(() => locations.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastLogin: timestamp({ withTimezone: true }),
    /** Bumped by a password change or reset, a login-link login, logout-all and deletion:
     * every session token carries the version it was issued under and dies when it moves. */
    sessionVersion: integer().notNull().default(0),
    /** SHA-256 of the staff member's iCalendar feed token (read-only, revocable); null: none. */
    feedTokenHash: text(),
    /** The racer's simulator id (Steam GUID), matching laps and results from sim servers. */
    simGuid: text(),
    /** Set when the account was deleted: its personal fields are blanked, its money records kept. */
    deletedAt: timestamp({ withTimezone: true }),
    /** The customer's choice: an e-mail before each visit (issue 45, decision 0119). */
    visitReminders: boolean().notNull().default(true),
  },
  (t) => [
    uniqueIndex('users_username_lower').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.email} <> ''`),
    index('users_search').on(t.lastName, t.firstName),
    uniqueIndex('users_feed_token_hash').on(t.feedTokenHash),
    uniqueIndex('users_sim_guid').on(t.simGuid),
    index('users_search_text').using('gin', sql`${userSearchText(t)} gin_trgm_ops`),
  ],
);

export const userPermissions = pgTable(
  'user_permissions',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permission: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.permission] })],
);

/** One-time login links (signup of an existing e-mail, forgot password, staff). */
export const loginTokens = pgTable('login_tokens', {
  id: serial().primaryKey(),
  userId: integer()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text().notNull().unique(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
