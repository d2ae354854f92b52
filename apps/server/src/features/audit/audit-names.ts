import { inArray } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import { calendars, calendarTypes, locations } from '../../db/schema/venue';
import { pages } from '../../db/schema/content';
import { cars, tracks } from '../../db/schema/laps';
import { parties, racePresets } from '../../db/schema/races';
import type { Db } from '../../db/client';
import { displayNameSql } from '../../lib/display-name-sql';

/** The kinds of object an audit row can name, by `target_type` and by field of before/after. */
const TABLES = {
  user: users,
  location: locations,
  calendar: calendars,
  calendar_type: calendarTypes,
  page: pages,
  party: parties,
  track: tracks,
  car: cars,
  race_preset: racePresets,
} as const;
type Kind = keyof typeof TABLES;

/** Fields of `before`/`after` that hold the id of a named object. */
const ID_FIELDS: Record<string, Kind> = {
  calendar: 'calendar',
  location: 'location',
  type: 'calendar_type',
  user: 'user',
  track: 'track',
  car: 'car',
  cars: 'car',
  preset: 'race_preset',
  members: 'calendar',
  excluded_calendars: 'calendar',
};

type Refs = Map<Kind, Set<number>>;

function add(refs: Refs, kind: Kind, id: unknown) {
  if (typeof id !== 'number' || !Number.isInteger(id)) return;
  if (!refs.has(kind)) refs.set(kind, new Set());
  refs.get(kind)!.add(id);
}

/** Ids under the known fields, at any depth (the planner keeps `slots: [{calendar, slot}]`). */
function collect(refs: Refs, value: unknown, depth = 0) {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(refs, item, depth + 1);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const kind = ID_FIELDS[key];
    // A list of ids (a party's `members`, an event's `cars`) names each of them.
    if (kind && Array.isArray(v) && v.every((x) => typeof x === 'number'))
      for (const id of v) add(refs, kind, id);
    else if (kind) add(refs, kind, v);
    else collect(refs, v, depth + 1);
  }
}

export type AuditRefRow = {
  targetType: string;
  targetId: number | null;
  before: unknown;
  after: unknown;
};

/**
 * The names of what a page of the trail points at, keyed `kind:id` (`calendar:3` → "Rig 3"),
 * so the screen shows names instead of ids. A deleted user is left out (their row keeps no
 * name); a deleted page or seat is simply not found. One query per kind, for the whole page.
 */
export async function auditNames(db: Db, rows: AuditRefRow[]): Promise<Record<string, string>> {
  const refs: Refs = new Map();
  for (const row of rows) {
    if (row.targetType in TABLES) add(refs, row.targetType as Kind, row.targetId);
    collect(refs, row.before);
    collect(refs, row.after);
  }
  const names: Record<string, string> = {};
  await Promise.all(
    [...refs].map(async ([kind, ids]) => {
      const list = [...ids];
      const found =
        kind === 'user'
          ? await db
              .select({ id: users.id, name: displayNameSql(users) })
              .from(users)
              .where(inArray(users.id, list))
          : await db
              .select({ id: TABLES[kind].id, name: TABLES[kind].name })
              .from(TABLES[kind])
              .where(inArray(TABLES[kind].id, list));
      for (const { id, name } of found) if (name) names[`${kind}:${id}`] = name;
    }),
  );
  return names;
}
