import { bigserial, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Secrets generated once per database (the JWT signing key when JWT_SECRET is unset), so every
 * API instance on one database signs and verifies with the same key.
 */
export const appSecrets = pgTable('app_secrets', {
  name: text().primaryKey(),
  value: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Fixed-window abuse counters shared by every instance (login, reset, signup, login-link mails),
 * keyed by what is limited: `login:acct:<name>`, `login:ip:<address>`, `signup:ip:<address>` …
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text().primaryKey(),
  hits: integer().notNull().default(0),
  resetAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * Single sessions ended before their expiry (`POST /auth/logout`), by the token's `jti`; a row
 * can be pruned once `expiresAt` has passed, when the token would be refused anyway.
 */
export const revokedSessions = pgTable('revoked_sessions', {
  jti: text().primaryKey(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * The change feed's replay window: every published change, by sequence number, so a client that
 * reconnects with `Last-Event-ID` gets what it missed. Old rows are pruned as new ones arrive.
 */
export const changeEvents = pgTable('change_events', {
  seq: bigserial({ mode: 'number' }).primaryKey(),
  topic: text().notNull(),
  refId: integer(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
