import { integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import type { TimingTower } from '@paddock/contract/live-timing';
import { raceEvents } from './races';

/**
 * The live timing tower of an event's current session (decision 0122): written by the instance
 * whose server feed it follows (a few times a second at most), read by every instance after the
 * change feed's `timing:<event>` notice. It stays after the flag as the session's frozen result.
 */
export const liveTimings = pgTable('live_timings', {
  eventId: integer()
    .primaryKey()
    .references(() => raceEvents.id, { onDelete: 'cascade' }),
  tower: jsonb().$type<TimingTower>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
