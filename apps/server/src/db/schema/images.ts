import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** Uploaded images; the file itself is in the image storage under `file` (decision 0041). */
export const images = pgTable('images', {
  id: serial().primaryKey(),
  /** Content-addressed: the SHA-256 of the bytes and the type's extension; one row per file. */
  file: text().notNull().unique(),
  contentType: text().notNull(),
  size: integer().notNull(),
  ownerId: integer().references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
