import { z } from 'zod';
import { idNumber, idText } from './common';

/**
 * The staff rig map (issue 42, decision 0127): every seat of a location as a tile, with what its
 * rig is doing and who sits there. One read model (`GET /rig_map`), live through the change feed.
 */

/** A tile's state, in the order the map weighs them (the first that holds wins). */
export const RIG_STATES = [
  'out_of_service',
  'offline',
  'starting',
  'in_session',
  'sim_not_running',
  'idle',
] as const;
export type RigState = (typeof RIG_STATES)[number];

/** What each state says on a tile. */
export const RIG_STATE_LABELS: Record<RigState, string> = {
  out_of_service: 'Out of service',
  offline: 'Rig offline',
  starting: 'Starting',
  in_session: 'In session',
  sim_not_running: 'Sim not running',
  idle: 'Idle',
};

/** A rig offline this long during opening hours raises the tile's alert. */
export const OFFLINE_ALERT_MINUTES = 3;

export const rigMapQuery = z.object({ location: idText.optional() });
export type RigMapQuery = z.input<typeof rigMapQuery>;

export const rigSession = z.object({
  /** The booking (its first half-hour) the session is. */
  reservation: z.number().int(),
  /** The half-hour running now (null for a session still to come): what a move takes along. */
  now_reservation: z.number().int().nullable(),
  customer: z.number().int().nullable(),
  /** The customer's display name (never an e-mail); null when there is none to show. */
  name: z.string().nullable(),
  starts: z.string(),
  ends: z.string(),
  paid: z.boolean(),
  club: z.boolean(),
});
export type RigSession = z.infer<typeof rigSession>;

/** The rig's agent, as far as it has told (issue 43): every field null until it has. */
export const rigHealth = z.object({
  agent_version: z.string().nullable(),
  last_seen: z.string().nullable(),
  sim_running: z.boolean().nullable(),
  disk_free_bytes: z.number().nullable(),
});
export type RigHealth = z.infer<typeof rigHealth>;

export const rigTile = z.object({
  calendar: z.number().int(),
  calendar_name: z.string(),
  state: z.enum(RIG_STATES),
  /** A rig agent holds the seat's current event socket: Start and End reach it. */
  rig_connected: z.boolean(),
  /** The rig last said its sim runs (the seat's entry is launched), whoever is booked. */
  sim_launched: z.boolean(),
  /** The event the seat runs now; null for a seat with none. */
  event: z.number().int().nullable(),
  /** The party whose event it is (the seat runs it with others); null for the seat's own. */
  party_name: z.string().nullable(),
  /** The other seats of that event: a Start from this tile leaves them out. */
  event_seats: z.array(z.number().int()),
  current: rigSession.nullable(),
  next: rigSession.nullable(),
  health: rigHealth,
  /** Offline during opening hours for OFFLINE_ALERT_MINUTES or more. */
  offline_alert: z.boolean(),
});
export type RigTile = z.infer<typeof rigTile>;

export const rigMap = z.object({
  location: z.number().int(),
  location_name: z.string(),
  timezone: z.string(),
  /** The server's clock when read: time left counts from here. */
  now: z.string(),
  /** The venue is open now (its opening hours): an offline rig matters. */
  open_now: z.boolean(),
  tiles: z.array(rigTile),
});
export type RigMap = z.infer<typeof rigMap>;

/** Move the customer in session on `calendar` to `to` for the rest of their time. */
export const rigMove = z.object({ calendar: idNumber, to: idNumber }).strict();
export type RigMove = z.infer<typeof rigMove>;

export const rigMoveResult = z.object({
  detail: z.string(),
  /** Every half-hour that moved. */
  reservation_ids: z.array(z.number().int()),
});
export type RigMoveResult = z.infer<typeof rigMoveResult>;
