import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Sim } from '@paddock/contract/laps';
import { users } from './accounts';
import { calendars } from './venue';

/** A simulator's content keys: `ac`, `acc`, `rf2`, `lmu`, `r3e` (the contract's `SIM_NAMES`). */
export type { Sim };

/** A track layout as the simulator names it (`ks_monza` / `full course`). */
export const tracks = pgTable(
  'tracks',
  {
    id: serial().primaryKey(),
    sim: text().$type<Sim>().notNull(),
    key: text().notNull(),
    layout: text().notNull().default(''),
    name: text().notNull(),
    country: text().notNull().default(''),
    lengthM: integer(),
    /** Added automatically when laps arrived for unknown content: staff check the name. */
    needsReview: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tracks_sim_key_layout').on(t.sim, t.key, t.layout)],
);

export const cars = pgTable(
  'cars',
  {
    id: serial().primaryKey(),
    sim: text().$type<Sim>().notNull(),
    key: text().notNull(),
    name: text().notNull(),
    brand: text().notNull().default(''),
    carClass: text().notNull().default(''),
    needsReview: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('cars_sim_key').on(t.sim, t.key)],
);

/** Racing groups (GT3, GT4, Formula, Road …). */
export const carGroups = pgTable('car_groups', {
  id: serial().primaryKey(),
  name: text().notNull().unique(),
});

export const carGroupMembers = pgTable(
  'car_group_members',
  {
    carId: integer()
      .notNull()
      .references(() => cars.id, { onDelete: 'cascade' }),
    groupId: integer()
      .notNull()
      .references(() => carGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.carId, t.groupId] }),
    index('car_group_members_group').on(t.groupId),
  ],
);

export const skins = pgTable(
  'skins',
  {
    id: serial().primaryKey(),
    carId: integer()
      .notNull()
      .references(() => cars.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    name: text().notNull(),
  },
  (t) => [uniqueIndex('skins_car_key').on(t.carId, t.key)],
);

/** A seat's key for sending laps; only its SHA-256 is kept. */
export const rigKeys = pgTable('rig_keys', {
  id: serial().primaryKey(),
  calendarId: integer()
    .notNull()
    .references(() => calendars.id, { onDelete: 'cascade' }),
  keyHash: text().notNull().unique(),
  label: text().notNull().default(''),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  revokedAt: timestamp({ withTimezone: true }),
});

export const laps = pgTable(
  'laps',
  {
    id: serial().primaryKey(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    calendarId: integer().references(() => calendars.id, { onDelete: 'set null' }),
    trackId: integer()
      .notNull()
      .references(() => tracks.id),
    carId: integer()
      .notNull()
      .references(() => cars.id),
    sim: text().$type<Sim>().notNull(),
    lapMs: integer().notNull(),
    sectorsMs: jsonb().$type<number[]>().notNull().default([]),
    cuts: integer().notNull().default(0),
    tyre: text().notNull().default(''),
    fuel: real(),
    ballastKg: integer(),
    driverGuid: text().notNull().default(''),
    driverName: text().notNull().default(''),
    recordedAt: timestamp({ withTimezone: true }).notNull(),
    /** Where the lap came from, unique: `rig:<key id>:<client lap id>` or `import:<file sha>:<n>`. */
    sourceKey: text().notNull().unique(),
    valid: boolean().notNull(),
    invalidReason: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('laps_user_recorded').on(t.userId, t.recordedAt),
    index('laps_track_recorded').on(t.trackId, t.recordedAt),
    index('laps_track_time')
      .on(t.trackId, t.lapMs, t.recordedAt)
      .where(sql`${t.valid} and ${t.userId} is not null`),
    // A board of a car group reads each of its cars' fastest laps in turn (issue 33); built
    // concurrently (src/db/concurrent-indexes.ts).
    index('laps_track_car_time')
      .on(t.trackId, t.carId, t.lapMs, t.recordedAt, t.id)
      .where(sql`${t.valid} and ${t.userId} is not null`),
    index('laps_unassigned_guid')
      .on(t.driverGuid)
      .where(sql`${t.userId} is null`),
    index('laps_personal_best')
      .on(t.userId, t.trackId, t.carId, t.lapMs, t.recordedAt)
      .where(sql`${t.valid}`),
  ],
);

/**
 * Each racer's best valid lap per track and car, kept in the same transaction as every lap
 * change, so an all-time board is one index range read however many laps there are.
 */
export const personalBests = pgTable(
  'personal_bests',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    carId: integer()
      .notNull()
      .references(() => cars.id, { onDelete: 'cascade' }),
    lapId: integer()
      .notNull()
      .references(() => laps.id, { onDelete: 'cascade' }),
    lapMs: integer().notNull(),
    recordedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.trackId, t.carId] }),
    index('personal_bests_board').on(t.trackId, t.lapMs, t.recordedAt),
    // A board of a car group, car by car (issue 33); built concurrently.
    index('personal_bests_board_car').on(t.trackId, t.carId, t.lapMs, t.recordedAt, t.lapId),
  ],
);

export type BoardCalculation = 'TIME' | 'POINTS';

/** Points rules of a POINTS board, as data. */
export type PointsRules = {
  table: number[];
  fastest_lap_bonus: number;
  pole_bonus: number;
  drop_worst: number;
  team_best_of: number;
};

export const boards = pgTable('boards', {
  id: serial().primaryKey(),
  name: text().notNull(),
  calculation: text().$type<BoardCalculation>().notNull(),
  description: text().notNull().default(''),
  trackId: integer().references(() => tracks.id, { onDelete: 'set null' }),
  groupId: integer().references(() => carGroups.id, { onDelete: 'set null' }),
  /** Only this simulator's laps and sessions count (null: every sim's). */
  sim: text().$type<Sim>(),
  since: date(),
  timeFrameDays: integer(),
  active: boolean().notNull().default(true),
  sortOrder: integer().notNull().default(0),
  pointsRules: jsonb().$type<PointsRules>(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A race session imported from a results file, for POINTS boards. */
export const raceSessions = pgTable(
  'race_sessions',
  {
    id: serial().primaryKey(),
    /** The SHA-256 of the file first imported for this session (for the record). */
    fileSha: text().notNull().unique(),
    /** The session's identity from its content (`ParsedSession.sessionKey`): a second file of
     *  the same session adds nothing. Sessions imported before it existed: `file:<sha>`. */
    sessionKey: text().notNull().unique(),
    sim: text().$type<Sim>().notNull(),
    trackId: integer()
      .notNull()
      .references(() => tracks.id),
    kind: text().notNull(),
    serverName: text().notNull().default(''),
    importedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    importedById: integer().references(() => users.id, { onDelete: 'set null' }),
  },
  // A POINTS board's season: its track's sessions since the board's start (issue 33).
  (t) => [index('race_sessions_track_imported').on(t.trackId, t.importedAt)],
);

/** One driver's finish in an imported session (position 1 = winner). */
export const raceResults = pgTable(
  'race_results',
  {
    id: serial().primaryKey(),
    sessionId: integer()
      .notNull()
      .references(() => raceSessions.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    driverGuid: text().notNull().default(''),
    driverName: text().notNull(),
    teamName: text().notNull().default(''),
    carId: integer()
      .notNull()
      .references(() => cars.id),
    bestLapMs: integer(),
    totalMs: integer(),
    laps: integer().notNull().default(0),
    fastestLap: boolean().notNull().default(false),
    pole: boolean().notNull().default(false),
  },
  (t) => [index('race_results_session').on(t.sessionId)],
);
