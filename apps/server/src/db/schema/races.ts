import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { AssistKey, SessionType, Spawn } from '@paddock/contract/races';
import { users } from './accounts';
import { cars, skins, tracks } from './laps';
import { calendars, locations } from './venue';

/** A preset's sessions, kept as they were when staff saved it. */
export type PresetSession = {
  name: string;
  type: SessionType;
  spawn: Spawn;
  duration: number;
  duration_is_laps: boolean;
};

/** A saved event template (spec §3 Preset). */
export const racePresets = pgTable('race_presets', {
  id: serial().primaryKey(),
  name: text().notNull(),
  trackId: integer().references(() => tracks.id, { onDelete: 'set null' }),
  carIds: integer().array().notNull().default([]),
  sessions: jsonb().$type<PresetSession[]>().notNull().default([]),
  assists: text().array().$type<AssistKey[]>().notNull().default([]),
  penalties: boolean().notNull().default(true),
  fixedSetup: boolean().notNull().default(false),
  driftMode: boolean().notNull().default(false),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every seat's own race event (one per calendar, made by a trigger when the seat is made). A
 * party's members use the host seat's event instead, and get theirs back when they leave. A
 * party set up for a later time owns an event of its own: no calendar (decision 0101).
 */
export const raceEvents = pgTable('race_events', {
  id: serial().primaryKey(),
  calendarId: integer()
    .unique()
    .references(() => calendars.id, { onDelete: 'cascade' }),
  trackId: integer().references(() => tracks.id, { onDelete: 'set null' }),
  /** The allowed car set. */
  carIds: integer().array().notNull().default([]),
  presetId: integer().references(() => racePresets.id, { onDelete: 'set null' }),
  assists: text().array().$type<AssistKey[]>().notNull().default([]),
  penalties: boolean().notNull().default(true),
  fixedSetup: boolean().notNull().default(false),
  driftMode: boolean().notNull().default(false),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** An event's sessions, run in `ordering`. */
export const eventSessions = pgTable(
  'event_sessions',
  {
    id: serial().primaryKey(),
    eventId: integer()
      .notNull()
      .references(() => raceEvents.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    type: text().$type<SessionType>().notNull(),
    spawn: text().$type<Spawn>().notNull(),
    ordering: integer().notNull(),
    duration: integer().notNull(),
    durationIsLaps: boolean().notNull().default(false),
  },
  (t) => [index('event_sessions_event').on(t.eventId, t.ordering)],
);

/** One seat in an event: its car and skin, its driver, and the rig's load state. */
export const eventEntries = pgTable(
  'event_entries',
  {
    id: serial().primaryKey(),
    eventId: integer()
      .notNull()
      .references(() => raceEvents.id, { onDelete: 'cascade' }),
    calendarId: integer()
      .notNull()
      .references(() => calendars.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    carId: integer().references(() => cars.id, { onDelete: 'set null' }),
    skinId: integer().references(() => skins.id, { onDelete: 'set null' }),
    exited: boolean().notNull().default(false),
    initialized: boolean().notNull().default(false),
    launched: boolean().notNull().default(false),
  },
  (t) => [uniqueIndex('event_entries_event_calendar').on(t.eventId, t.calendarId)],
);

/**
 * Seats of one location sharing one event: the host seat's own when the party starts at once,
 * an event of the party's own when it starts later (`starts_at`, decision 0101).
 */
export const parties = pgTable(
  'parties',
  {
    id: serial().primaryKey(),
    locationId: integer()
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    hostCalendarId: integer()
      .notNull()
      .references(() => calendars.id, { onDelete: 'cascade' }),
    hostEventId: integer()
      .notNull()
      .references(() => raceEvents.id, { onDelete: 'cascade' }),
    /** When the seats switch to the party's event; null: at once (it started when made). */
    startsAt: timestamp({ withTimezone: true }),
    /** Set once by the instance whose timer switched the seats at `starts_at`. */
    switchedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('parties_location').on(t.locationId),
    index('parties_waiting')
      .on(t.startsAt)
      .where(sql`switched_at is null and starts_at is not null`),
  ],
);

/**
 * A seat is in one started party at most, and in later ones that start at least a slot apart
 * (the service checks; decision 0101). The host is a member too.
 */
export const partyMembers = pgTable(
  'party_members',
  {
    id: serial().primaryKey(),
    partyId: integer()
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    calendarId: integer()
      .notNull()
      .references(() => calendars.id, { onDelete: 'cascade' }),
    isHost: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('party_members_party').on(t.partyId),
    uniqueIndex('party_members_party_calendar').on(t.partyId, t.calendarId),
    index('party_members_calendar').on(t.calendarId),
  ],
);

/** One-time socket tickets (hash only): a browser opens the live socket without its session token. */
export const socketTickets = pgTable('socket_tickets', {
  hash: text().primaryKey(),
  userId: integer()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  eventId: integer()
    .notNull()
    .references(() => raceEvents.id, { onDelete: 'cascade' }),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * A rig agent's open launcher socket, on whichever instance holds it (decision 0115): made when
 * the rig joins an event's socket, its `expires_at` pushed on at each ping round (three rounds
 * ahead), gone when the socket closes. A row past `expires_at` is a socket whose instance
 * stopped without saying so; any instance's ping round removes it. So every instance can say
 * which seats of an event would hear a signal, before and after Start.
 */
export const rigConnections = pgTable(
  'rig_connections',
  {
    /** The socket's id (the hub's client id). */
    id: text().primaryKey(),
    calendarId: integer()
      .notNull()
      .references(() => calendars.id, { onDelete: 'cascade' }),
    eventId: integer()
      .notNull()
      .references(() => raceEvents.id, { onDelete: 'cascade' }),
    connectedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('rig_connections_event').on(t.eventId, t.calendarId),
    index('rig_connections_expires').on(t.expiresAt),
  ],
);
