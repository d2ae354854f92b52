// The rig agents on a venue's PCs (issue 43, decision 0121): a PC waiting to be paired with a
// seat, and what each seat's agent last said about itself (its health, read by the rig map).
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { calendars } from './venue';
import { rigKeys } from './laps';

/**
 * A PC's pairing: the agent asked for a code (shown on its screen), staff typed it on a seat,
 * the agent fetched its key once with its secret. The key waits here only between those two
 * steps; the row goes when the key is fetched or the code expires.
 */
export const rigPairings = pgTable(
  'rig_pairings',
  {
    id: serial().primaryKey(),
    /** Six letters and digits (no 0/O, 1/I), unique while the pairing lives. */
    code: text().notNull().unique(),
    /** sha256 of the secret only this PC's agent knows (it fetches the key with it). */
    secretHash: text().notNull().unique(),
    /** The PC's name, to tell waiting rigs apart. */
    hostname: text().notNull().default(''),
    calendarId: integer().references(() => calendars.id, { onDelete: 'cascade' }),
    /** The new rig key, until the agent fetched it. */
    key: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('rig_pairings_expires').on(t.expiresAt)],
);

/** One row per seat: the last health report of its rig agent. */
export const rigHealth = pgTable('rig_health', {
  calendarId: integer()
    .primaryKey()
    .references(() => calendars.id, { onDelete: 'cascade' }),
  rigKeyId: integer().references(() => rigKeys.id, { onDelete: 'set null' }),
  agentVersion: text().notNull(),
  simRunning: boolean().notNull(),
  /** Free bytes on the drive of the sim's results/replays folder; null when unknown. */
  diskFreeBytes: bigint({ mode: 'number' }),
  lastSeen: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
