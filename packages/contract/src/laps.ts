import { z } from 'zod';
import { idNumber, idText, intText, paginationQuery, queryBoolean } from './common';

export const SIMS = ['ac', 'acc', 'rf2', 'lmu', 'r3e'] as const;
export const sim = z.enum(SIMS);
export type Sim = (typeof SIMS)[number];
export const SIM_NAMES: Record<Sim, string> = {
  ac: 'Assetto Corsa',
  acc: 'Assetto Corsa Competizione',
  rf2: 'rFactor 2',
  lmu: 'Le Mans Ultimate',
  r3e: 'RaceRoom',
};

/** Lap times as the spec shows them: `m:ss.SSS` (`h:mm:ss.SSS` past an hour). */
export function formatLapTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const frac = String(ms % 1000).padStart(3, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}.${frac}` : `${m}:${ss}.${frac}`;
}

export const group = z.object({ id: z.number().int(), name: z.string() });
export type Group = z.infer<typeof group>;

export const track = z.object({
  id: z.number().int(),
  sim: sim,
  key: z.string(),
  layout: z.string(),
  name: z.string(),
  country: z.string(),
  length_m: z.number().int().nullable(),
  needs_review: z.boolean(),
  laps_count: z.number().int(),
  laps_record_hms: z.string().nullable(),
  laps_record_user: z.string().nullable(),
  laps_record_car: z.string().nullable(),
});
export type Track = z.infer<typeof track>;

export const car = z.object({
  id: z.number().int(),
  sim: sim,
  key: z.string(),
  name: z.string(),
  brand: z.string(),
  car_class: z.string(),
  needs_review: z.boolean(),
  groups: z.array(group),
  /** Seconds driven in this car, all laps together. */
  total_time_seconds: z.number().int(),
});
export type Car = z.infer<typeof car>;

export const catalogQuery = paginationQuery.extend({
  search: z.string().trim().max(100).optional(),
});
export const carsQuery = catalogQuery.extend({
  /** Group ids, comma separated: cars in any of them. */
  groups: z
    .string()
    .regex(/^[1-9]\d{0,8}(,[1-9]\d{0,8}){0,19}$/, 'Enter ids separated by commas.')
    .transform((v) => v.split(',').map(Number))
    .optional(),
});

const name = z.string().trim().min(1).max(120);
const trackFields = {
  name,
  country: z.string().trim().max(60),
  length_m: z.number().int().min(1).max(100_000).nullable(),
};
export const trackWrite = z
  .object({
    sim,
    key: z.string().trim().min(1).max(120),
    layout: z.string().trim().max(120).default(''),
    ...trackFields,
    country: trackFields.country.default(''),
    length_m: trackFields.length_m.default(null),
  })
  .strict();
/** An update names only what changes (no defaults: a field left out is left alone). */
export const trackUpdate = z
  .object({ ...trackFields, needs_review: z.boolean() })
  .partial()
  .strict();
const carFields = {
  name,
  brand: z.string().trim().max(60),
  car_class: z.string().trim().max(60),
  groups: z.array(idNumber).max(20),
};
export const carWrite = z
  .object({
    sim,
    key: z.string().trim().min(1).max(120),
    ...carFields,
    brand: carFields.brand.default(''),
    car_class: carFields.car_class.default(''),
    groups: carFields.groups.default([]),
  })
  .strict();
export const carUpdate = z
  .object({ ...carFields, needs_review: z.boolean() })
  .partial()
  .strict();
export const groupWrite = z.object({ name: z.string().trim().min(1).max(60) }).strict();

/** A lap as `/laps` and the TIME board results show it (spec §3 Lap). */
export const lap = z.object({
  id: z.number().int(),
  rank: z.number().int().nullable(),
  hms: z.string(),
  lap_ms: z.number().int(),
  track: z.number().int(),
  track_name: z.string(),
  car: z.number().int(),
  car_name: z.string(),
  approved: z.boolean(),
  invalid_reason: z.string(),
  tire: z.string(),
  fuel: z.number().nullable(),
  ballast: z.number().int().nullable(),
  sim_name: z.string(),
  created: z.string(),
  user: z.number().int().nullable(),
  board: z.number().int().nullable(),
  display_name: z.string(),
  display_social: z.string(),
  flag_url: z.string(),
});
export type Lap = z.infer<typeof lap>;

export const lapsQuery = paginationQuery.extend({
  user: z.union([z.literal('me'), idText]).optional(),
  approved: queryBoolean.optional(),
  search: z.string().trim().max(100).optional(),
  track: idText.optional(),
  car__groups__id: idText.optional(),
  ordering: z.enum(['rank', '-created']).optional(),
});
export type LapsQuery = z.infer<typeof lapsQuery>;

/** What a rig sends for one lap (`POST /laps`, `Authorization: Rig <key>`). */
export const lapIngest = z
  .object({
    client_lap_id: z.string().trim().min(1).max(100),
    sim,
    track: z.string().trim().min(1).max(120),
    layout: z.string().trim().max(120).default(''),
    car: z.string().trim().min(1).max(120),
    lap_ms: z.number().int().min(1000).max(3_600_000),
    sectors_ms: z.array(z.number().int().min(0).max(3_600_000)).max(10).default([]),
    cuts: z.number().int().min(0).max(1000).default(0),
    tyre: z.string().trim().max(40).default(''),
    fuel: z.number().min(0).max(1000).nullable().default(null),
    ballast_kg: z.number().int().min(0).max(1000).nullable().default(null),
    driver_guid: z.string().trim().max(64).default(''),
    driver_name: z.string().trim().max(120).default(''),
    recorded_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type LapIngest = z.infer<typeof lapIngest>;

export const lapIngestResponse = z.object({ id: z.number().int(), created: z.boolean() });

export const lapReview = z
  .object({
    approved: z.boolean().optional(),
    reason: z.string().trim().max(200).optional(),
    user: idNumber.nullable().optional(),
  })
  .strict();

/** `POST /laps/import?sim=lmu`: which sim wrote an rFactor XML file (the file does not say);
 *  rFactor 2 when not given. Other files name their sim themselves. */
export const importQuery = z.object({ sim: z.enum(['rf2', 'lmu']).optional() });

export const importResponse = z.object({
  sim,
  track: z.string(),
  session: z.string(),
  /** This session (by its content: server, track, session, start) was imported before: the
   *  import added nothing. */
  already_imported: z.boolean(),
  laps_added: z.number().int(),
  /** Laps stored already (they came live) whose missing driver or owner the file filled in. */
  laps_filled: z.number().int(),
  laps_skipped: z.number().int(),
  drivers_matched: z.number().int(),
  drivers: z.number().int(),
});
export type ImportResponse = z.infer<typeof importResponse>;

export const rigKey = z.object({
  id: z.number().int(),
  calendar: z.number().int(),
  calendar_name: z.string(),
  label: z.string(),
  created: z.string(),
  revoked: z.boolean(),
  /** Shown once, when made. */
  key: z.string().optional(),
});
/** GET /rig_keys/me (Authorization: Rig <key>): the seat a rig agent drives and its event now. */
export const rigWhoami = z.object({
  id: z.number().int(),
  calendar: z.number().int(),
  calendar_name: z.string(),
  label: z.string(),
  /** The event the seat runs now (its party's event while in a party, else its own). */
  event: z.number().int().nullable(),
});
export type RigWhoami = z.infer<typeof rigWhoami>;
export const rigKeyCreate = z
  .object({ calendar: idNumber, label: z.string().trim().max(60).default('') })
  .strict();

export const BOARD_CALCULATIONS = ['TIME', 'POINTS'] as const;

export const board = z.object({
  id: z.number().int(),
  name: z.string(),
  calculation: z.enum(BOARD_CALCULATIONS),
  description: z.string(),
  track: z.number().int().nullable(),
  track_name: z.string().nullable(),
  sim: sim.nullable(),
  group: z.number().int().nullable(),
  group_name: z.string().nullable(),
  since: z.string().nullable(),
  time_frame_days: z.number().int().nullable(),
  time_frame_pretty: z.string(),
  active: z.boolean(),
  sort_order: z.number().int(),
});
export type Board = z.infer<typeof board>;

export const pointsRules = z
  .object({
    table: z.array(z.number().int().min(0).max(1000)).min(1).max(50),
    fastest_lap_bonus: z.number().int().min(0).max(100),
    pole_bonus: z.number().int().min(0).max(100),
    drop_worst: z.number().int().min(0).max(50),
    team_best_of: z.number().int().min(1).max(20),
  })
  .strict();

const boardFields = {
  name: z.string().trim().min(1).max(120),
  calculation: z.enum(BOARD_CALCULATIONS),
  description: z.string().max(20_000),
  track: idNumber.nullable(),
  /** Only this sim's laps and sessions count; null: every sim's. */
  sim: sim.nullable(),
  group: idNumber.nullable(),
  since: z.iso.date().nullable(),
  time_frame_days: z.number().int().min(1).max(3650).nullable(),
  active: z.boolean(),
  sort_order: z.number().int().min(0).max(10_000),
  points_rules: pointsRules.nullable(),
};
export const boardWrite = z
  .object({
    ...boardFields,
    description: boardFields.description.default(''),
    track: boardFields.track.default(null),
    sim: boardFields.sim.default(null),
    group: boardFields.group.default(null),
    since: boardFields.since.default(null),
    time_frame_days: boardFields.time_frame_days.default(null),
    active: boardFields.active.default(true),
    sort_order: boardFields.sort_order.default(0),
    points_rules: boardFields.points_rules.default(null),
  })
  .strict();
/** An update names only what changes (no defaults: a field left out is left alone). */
export const boardUpdate = z.object(boardFields).partial().strict();

export const boardResultsQuery = z.object({
  count: intText(1, 100).default(15),
  /** Narrow the board to one car, or one tyre compound, on the page. */
  car: idText.optional(),
  tyre: z.string().trim().min(1).max(40).optional(),
});

/** A POINTS board entry (spec §3 Points rank entry). */
export const pointsEntry = z.object({
  rank: z.number().int(),
  name: z.string(),
  points: z.number().int(),
  car: z.string(),
  flag_url: z.string(),
  members: z.array(z.string()),
});
export type PointsEntry = z.infer<typeof pointsEntry>;

export const teamsQuery = paginationQuery.extend({
  board: idText,
  approved: queryBoolean.optional(),
});

/**
 * "My progress": one point per session of the racer on a track, by car (a session: the valid
 * laps of one day in one car), in car then date order.
 */
export const progressQuery = z.object({ track: idText });
export const progressPoint = z.object({
  date: z.iso.date(),
  car: z.number().int(),
  car_name: z.string(),
  /** The session's best valid lap. */
  best_ms: z.number().int(),
  hms: z.string(),
  /** Valid laps in the session. */
  laps: z.number().int(),
  /** The session beat every earlier one in this car (the first session counts). */
  personal_best: z.boolean(),
});
export type ProgressPoint = z.infer<typeof progressPoint>;
