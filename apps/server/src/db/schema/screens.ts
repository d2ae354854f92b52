import { pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Wall screens (display, welcome, splash) that follow the change feed with a `?screen=` name:
 * what they show, which build they run and when they last checked in (every heartbeat).
 */
export const screens = pgTable('screens', {
  id: serial().primaryKey(),
  name: text().notNull().unique(),
  path: text().notNull().default(''),
  build: text(),
  userAgent: text(),
  firstSeen: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lastSeen: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
