import {
  SESSION_DEFAULTS,
  SESSION_LAPS_MAX,
  SESSION_MINUTES_MAX,
  SESSION_NAMES,
  SESSIONS_MAX,
  type AssistKey,
  type RaceEvent,
  type RaceEventUpdate,
  type SessionType,
  type Spawn,
} from '@paddock/contract/races';
import { ApiError } from '../../lib/api-client';

/** One session as the modal edits it; `key` keeps React rows stable while they move. */
export type SessionDraft = {
  key: string;
  name: string;
  type: SessionType;
  spawn: Spawn;
  duration: number;
  duration_is_laps: boolean;
};

export type EntryDraft = {
  calendar: number;
  calendar_name: string;
  car: number | null;
  skin: number | null;
  /** The driver in the seat, if staff chose one. */
  user: number | null;
};

/** The event-edit modal's state: what a save sends. */
export type EventDraft = {
  track: number | null;
  cars: number[];
  sessions: SessionDraft[];
  entries: EntryDraft[];
  assists: AssistKey[];
  penalties: boolean;
  fixed_setup: boolean;
  drift_mode: boolean;
};

let keys = 0;
const nextKey = () => `s${++keys}`;

/** A new session of a type with the spec's defaults (§4: 25/10/10 minutes; PIT, PIT, START). */
export function newSession(type: SessionType): SessionDraft {
  return {
    key: nextKey(),
    name: SESSION_NAMES[type],
    type,
    spawn: SESSION_DEFAULTS[type].spawn,
    duration: SESSION_DEFAULTS[type].duration,
    duration_is_laps: false,
  };
}

/** A session switched to another type takes that type's spawn, and its default time if it was on one. */
export function changeSessionType(session: SessionDraft, type: SessionType): SessionDraft {
  const wasDefault =
    !session.duration_is_laps && session.duration === SESSION_DEFAULTS[session.type].duration;
  const wasDefaultName = session.name === '' || session.name === SESSION_NAMES[session.type];
  return {
    ...session,
    type,
    spawn: SESSION_DEFAULTS[type].spawn,
    duration: wasDefault ? SESSION_DEFAULTS[type].duration : session.duration,
    name: wasDefaultName ? SESSION_NAMES[type] : session.name,
  };
}

/**
 * The session types that may be added now: at most one race (and the server says so too);
 * HOTLAP only on a seat's own single-player event, never a party's.
 */
export function addableTypes(sessions: readonly SessionDraft[], singlePlayer: boolean) {
  const full = sessions.length >= SESSIONS_MAX;
  const hasRace = sessions.some((s) => s.type === 'RACE');
  return {
    PRACTICE: !full,
    QUALIFYING: !full,
    RACE: !full && !hasRace,
    HOTLAP: !full && singlePlayer,
  } satisfies Record<SessionType, boolean>;
}

/** The longest a session may run in its unit (1–240 minutes or 1–200 laps). */
export const durationMax = (session: Pick<SessionDraft, 'duration_is_laps'>) =>
  session.duration_is_laps ? SESSION_LAPS_MAX : SESSION_MINUTES_MAX;

/** Moves the session at `index` one place up (-1) or down (+1); ordering follows the list. */
export function moveSession(sessions: SessionDraft[], index: number, by: -1 | 1): SessionDraft[] {
  const to = index + by;
  if (to < 0 || to >= sessions.length) return sessions;
  const next = [...sessions];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

export function draftFromEvent(event: RaceEvent): EventDraft {
  return {
    track: event.track,
    cars: [...event.cars],
    sessions: [...event.sessions]
      .sort((a, b) => a.ordering - b.ordering)
      .map((s) => ({
        key: nextKey(),
        name: s.name,
        type: s.type,
        spawn: s.spawn,
        duration: s.duration,
        duration_is_laps: s.duration_is_laps,
      })),
    entries: [...event.entries]
      .sort((a, b) => a.calendar_name.localeCompare(b.calendar_name, undefined, { numeric: true }))
      .map((e) => ({
        calendar: e.calendar,
        calendar_name: e.calendar_name,
        car: e.car,
        skin: e.skin,
        user: e.user,
      })),
    assists: [...event.assists],
    penalties: event.penalties,
    fixed_setup: event.fixed_setup,
    drift_mode: event.drift_mode,
  };
}

/** The PATCH body of a save: every field the modal edits; sessions in the order shown. */
export function draftToUpdate(draft: EventDraft): RaceEventUpdate {
  return {
    track: draft.track,
    cars: draft.cars,
    sessions: draft.sessions.map((s) => ({
      name: s.name.trim() || SESSION_NAMES[s.type],
      type: s.type,
      spawn: s.spawn,
      duration: s.duration,
      duration_is_laps: s.duration_is_laps,
    })),
    entries: draft.entries.map((e) => ({
      calendar: e.calendar,
      car: e.car,
      skin: e.skin,
      user: e.user,
    })),
    assists: draft.assists,
    penalties: draft.penalties,
    fixed_setup: draft.fixed_setup,
    drift_mode: draft.drift_mode,
  };
}

/** Removing a car from the allowed set also clears it (and its skin) from the seats driving it. */
export function withoutCar(draft: EventDraft, car: number): EventDraft {
  return {
    ...draft,
    cars: draft.cars.filter((c) => c !== car),
    entries: draft.entries.map((e) => (e.car === car ? { ...e, car: null, skin: null } : e)),
  };
}

/**
 * A 400's field errors by field path (`track`, `sessions.0.duration`, `entries.1.car`), for
 * showing each beside its field; `general` holds the rest (non_field_errors, detail, unknown
 * fields). Null when the error is not a 400 with a body.
 */
export function fieldErrors(
  error: unknown,
): { fields: Record<string, string>; general: string[] } | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = error.body;
  if (!body || typeof body !== 'object') return null;
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const text = (Array.isArray(value) ? value : [value])
      .filter((v): v is string => typeof v === 'string')
      .join(' ');
    if (!text) continue;
    if (key === 'non_field_errors' || key === 'detail') general.push(text);
    else fields[key.replace(/\[(\d+)\]/g, '.$1')] = text;
  }
  return { fields, general };
}
