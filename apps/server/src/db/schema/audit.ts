import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * What staff did: who, when, what, to which object (and which customer it concerns), with the
 * fields before and after. Written in the same transaction as the action it records.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: serial().primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** e.g. `planner.blackout`, `user.update`, `settings.update`. */
    action: text().notNull(),
    targetType: text().notNull(),
    targetId: integer(),
    /** The customer the action concerns, for their admin page's trail. */
    subjectUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    before: jsonb(),
    after: jsonb(),
  },
  (t) => [
    index('audit_events_at').on(t.at),
    index('audit_events_subject').on(t.subjectUserId, t.at),
    index('audit_events_actor').on(t.actorId, t.at),
  ],
);

/**
 * How many audit rows there are, kept at each commit by a trigger (migration
 * audit_totals_sync): the trail's first page shows its page count, and counting a chain's
 * trail row by row grows with every year (issue 33, decision 0108). One row.
 */
export const auditTotals = pgTable(
  'audit_totals',
  {
    one: boolean().primaryKey().default(true),
    events: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [check('audit_totals_one_row', sql`${t.one}`)],
);
