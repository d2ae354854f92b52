import { integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const pages = pgTable('pages', {
  id: serial().primaryKey(),
  name: text().notNull(),
  menuName: text().notNull().default(''),
  /** Position among the top bar's custom pages: lower first, then by id. */
  menuOrder: integer().notNull().default(0),
  content: text().notNull().default(''),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Venue settings that staff change; key → JSON value. */
export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
});

/** Mail kept when no SMTP server is configured, readable by staff. */
export const outboxMessages = pgTable('outbox_messages', {
  id: serial().primaryKey(),
  to: text().notNull(),
  subject: text().notNull(),
  text: text().notNull(),
  html: text().notNull().default(''),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
