import { z } from 'zod';
import { idNumber, idText, paginationQuery } from './common';

/*
 * Race control (spec staff §2 Party admin page + Launcher, §3 Party … Skin, §4, §5, §7).
 * Every seat (calendar) has its own race event; a party links seats of one location and they
 * share the host seat's event (`host_event`). Routes live under /api/races; the live socket is
 * /ws/launcher/events/{id}/ (see the socket messages at the end of this file).
 */

// ---------------------------------------------------------------- constants (spec §4, §9)

export const SESSION_TYPES = ['PRACTICE', 'QUALIFYING', 'RACE', 'HOTLAP'] as const;
export const sessionType = z.enum(SESSION_TYPES);
export type SessionType = z.infer<typeof sessionType>;

export const SPAWNS = ['PIT', 'START', 'HOTLAP_START'] as const;
export const spawn = z.enum(SPAWNS);
export type Spawn = z.infer<typeof spawn>;

/** Spec §4 event defaults: practice 25, qualifying 10, race 10; spawn PIT, PIT, START. */
export const SESSION_DEFAULTS: Record<SessionType, { duration: number; spawn: Spawn }> = {
  PRACTICE: { duration: 25, spawn: 'PIT' },
  QUALIFYING: { duration: 10, spawn: 'PIT' },
  RACE: { duration: 10, spawn: 'START' },
  HOTLAP: { duration: 25, spawn: 'HOTLAP_START' },
};
export const SESSION_NAMES: Record<SessionType, string> = {
  PRACTICE: 'Practice',
  QUALIFYING: 'Qualifying',
  RACE: 'Race',
  HOTLAP: 'Hotlap',
};
/** A session runs 1–240 minutes or 1–200 laps. */
export const SESSION_MINUTES_MAX = 240;
export const SESSION_LAPS_MAX = 200;
export const SESSIONS_MAX = 10;
/** Spec §9: the launcher socket reconnects 2 s after a drop (not after a deliberate close). */
export const SOCKET_RETRY_MS = 2000;
/** Spec §9: pickers search 1 s after the last key stroke. */
export const RESOURCE_SEARCH_DEBOUNCE_MS = 1000;
export const PARTY_NAME_MAX = 100;
export const PRESET_NAME_MAX = 100;
/** Spec §2 Party admin page empty state, word for word. */
export const NO_PARTIES_TITLE = 'No parties have been created yet.';
export const NO_PARTIES_HINT = 'Select seats from the left to get started.';
/** Spec §5: the default party name is the host's name plus 's Party. */
export const defaultPartyName = (hostName: string) => `${hostName}'s Party`;
/**
 * The default name, not a copy of another party's (issue 41): "Sim 1's Party", then
 * "Sim 1's Party 2", 3… past the names `taken` (compared without case or outer spaces).
 */
export function uniquePartyName(hostName: string, taken: readonly string[]): string {
  const used = new Set(taken.map((n) => n.trim().toLowerCase()));
  const base = defaultPartyName(hostName);
  let name = base;
  for (let n = 2; used.has(name.toLowerCase()); n += 1) name = `${base} ${n}`;
  return name;
}

/** Spec §4: duration + 1.2 minutes, rounded, per minute-based session (lap sessions add 0). */
export function sessionTimeEstimate(
  sessions: readonly { duration: number; duration_is_laps: boolean }[],
): number {
  return sessions
    .filter((s) => !s.duration_is_laps)
    .reduce((sum, s) => sum + Math.round(s.duration + 1.2), 0);
}

/** Driving aids an event may allow (spec §3 Assist: names only). */
export const ASSISTS = [
  'abs',
  'traction_control',
  'stability_control',
  'auto_clutch',
  'ideal_line',
  'tyre_blankets',
] as const;
export const assistKey = z.enum(ASSISTS);
export type AssistKey = z.infer<typeof assistKey>;
export const ASSIST_NAMES: Record<AssistKey, string> = {
  abs: 'ABS',
  traction_control: 'Traction control',
  stability_control: 'Stability control',
  auto_clutch: 'Auto clutch',
  ideal_line: 'Ideal line',
  tyre_blankets: 'Tyre blankets',
};
export const assist = z.object({ id: assistKey, name: z.string() });
export type Assist = z.infer<typeof assist>;

/** Load state of a seat in an event (spec §4): exited → none, initialized → loading, launched → running. */
export const LOAD_STATES = ['none', 'loading', 'running'] as const;
export const loadState = z.enum(LOAD_STATES);
export type LoadState = z.infer<typeof loadState>;
/** What a rig reports. */
export const RIG_REPORTS = ['exited', 'initialized', 'launched'] as const;
export const rigReport = z.enum(RIG_REPORTS);
export type RigReport = z.infer<typeof rigReport>;
export function loadStateOf(entry: { exited: boolean; initialized: boolean; launched: boolean }) {
  if (entry.exited) return 'none' as const;
  if (entry.launched) return 'running' as const;
  if (entry.initialized) return 'loading' as const;
  return 'none' as const;
}

// ---------------------------------------------------------------- entities (spec §3)

export const session = z.object({
  id: z.number().int(),
  event: z.number().int(),
  name: z.string(),
  type: sessionType,
  spawn: spawn,
  ordering: z.number().int(),
  duration: z.number().int(),
  duration_is_laps: z.boolean(),
});
export type Session = z.infer<typeof session>;

export const entry = z.object({
  id: z.number().int(),
  event: z.number().int(),
  calendar: z.number().int(),
  calendar_name: z.string(),
  user: z.number().int().nullable(),
  car: z.number().int().nullable(),
  skin: z.number().int().nullable(),
  exited: z.boolean(),
  initialized: z.boolean(),
  launched: z.boolean(),
  /** Derived from the three flags (see `loadStateOf`). */
  state: loadState,
  /**
   * A rig agent holds this event's launcher socket for the seat now, on any instance (decision
   * 0115): a host signal reaches the seat only then.
   */
  rig_connected: z.boolean(),
});
export type Entry = z.infer<typeof entry>;

export const raceEvent = z.object({
  id: z.number().int(),
  /**
   * The seat that owns this event (the party's host seat for a party's event; for the event of
   * a party set up for later, which no seat owns, its host seat too: decision 0101).
   */
  calendar: z.number().int(),
  /** The party sharing this event, when the owning seat hosts one. */
  party: z.number().int().nullable(),
  /**
   * While the owning seat runs another event (a guest in a party, or in a party set up for later
   * once it has started): that event (a rig on this event's socket moves there). Else null.
   */
  moved_to: z.number().int().nullable(),
  track: z.number().int().nullable(),
  /** The allowed car set; every entry's car is one of these. */
  cars: z.array(z.number().int()),
  sessions: z.array(session),
  entries: z.array(entry),
  preset: z.number().int().nullable(),
  assists: z.array(assistKey),
  penalties: z.boolean(),
  fixed_setup: z.boolean(),
  drift_mode: z.boolean(),
});
export type RaceEvent = z.infer<typeof raceEvent>;

export const partyMember = z.object({
  id: z.number().int(),
  party: z.number().int(),
  calendar: z.number().int(),
  calendar_name: z.string(),
  /** The driver of the seat's entry, if staff set one. */
  user: z.number().int().nullable(),
  is_host: z.boolean(),
  /**
   * A blackout covers the seat at the party's time (now, or its start): taken out of service
   * (decision 0117). Staff swap the seat or race without it.
   */
  out_of_service: z.boolean().optional(),
});
export type PartyMember = z.infer<typeof partyMember>;

/** Spec §3 Party invitation (`member_requests`): a seat asking to join. */
export const partyInvitation = z.object({
  id: z.number().int(),
  party: z.number().int(),
  calendar: z.number().int(),
});
export type PartyInvitation = z.infer<typeof partyInvitation>;

export const party = z.object({
  id: z.number().int(),
  location: z.number().int(),
  name: z.string(),
  host_event: z.number().int(),
  /** The host seat (also the member with is_host). */
  host_calendar: z.number().int(),
  members: z.array(partyMember),
  member_requests: z.array(partyInvitation),
  /**
   * When the seats switch to the party's event (decision 0101); null: it started when made.
   * Until then its seats run their own events.
   */
  starts_at: z.string().nullable(),
  /** The seats run the party's event now (`starts_at` is empty or has come). */
  started: z.boolean(),
  /** The shared event, related (spec §7 "with related"). */
  event: raceEvent,
});
export type Party = z.infer<typeof party>;

/** A saved event template (spec §3 Preset). */
export const preset = z.object({
  id: z.number().int(),
  name: z.string(),
  track: z.number().int().nullable(),
  cars: z.array(z.number().int()),
  sessions: z.array(
    z.object({
      name: z.string(),
      type: sessionType,
      spawn: spawn,
      duration: z.number().int(),
      duration_is_laps: z.boolean(),
    }),
  ),
  assists: z.array(assistKey),
  penalties: z.boolean(),
  fixed_setup: z.boolean(),
  drift_mode: z.boolean(),
});
export type Preset = z.infer<typeof preset>;

export const skin = z.object({
  id: z.number().int(),
  car: z.number().int(),
  key: z.string(),
  name: z.string(),
});
export type Skin = z.infer<typeof skin>;

// ---------------------------------------------------------------- requests (spec §5, §7)

/**
 * GET /races/events?location=: the events the location's seats run now (a party's event once),
 * in seat order, for the launcher's overview (else the caller's own location, else all).
 */
export const eventsQuery = z.object({ location: idText.optional() });

/** GET /races/parties?location= (else the caller's own location, else all). */
export const partiesQuery = z.object({ location: idText.optional() });

/** A party set up for later may start at most this many days ahead (the staff booking window). */
export const PARTY_START_DAYS_MAX = 62;
/** A seat's parties start at least this far apart: a party holds its seats a slot at least. */
export const PARTY_START_GAP_MINUTES = 30;
export const PARTY_START_PAST = 'Choose a time from now on, or Now.';
export const PARTY_START_FAR = `Choose a time within ${PARTY_START_DAYS_MAX} days.`;
export const PARTY_STARTED = 'This party has started; its start cannot move.';
export const PARTY_START_OVERLAP = `This seat is in another party starting within ${PARTY_START_GAP_MINUTES} minutes of this one.`;

/** An instant with its offset (the web sends the venue-zone time it shows); null: now. */
const startsAt = z.iso
  .datetime({ offset: true, message: 'Enter an ISO 8601 date and time.' })
  .nullable()
  .optional();

/**
 * POST /races/parties/host → 201 Party. Name empty or left out: "<host seat's name>'s Party".
 * `starts_at` later than now: the party gets an event of its own and its seats switch at that
 * time (decision 0101); empty: the host seat's event becomes the party's at once.
 */
export const partyHost = z
  .object({
    calendar: idNumber,
    name: z.string().trim().max(PARTY_NAME_MAX).optional(),
    starts_at: startsAt,
  })
  .strict();
export type PartyHost = z.infer<typeof partyHost>;

/**
 * PATCH /races/parties/{id}: rename, or move a waiting party's start (null: start now); a field
 * left out is left alone.
 */
export const partyUpdate = z
  .object({
    name: z.string().trim().min(1).max(PARTY_NAME_MAX).optional(),
    starts_at: startsAt,
  })
  .strict();
export type PartyUpdate = z.infer<typeof partyUpdate>;

/** POST /races/parties/members → 201 Party member. */
export const partyMemberAdd = z.object({ party: idNumber, calendar: idNumber }).strict();
export type PartyMemberAdd = z.infer<typeof partyMemberAdd>;

export const sessionWrite = z
  .object({
    name: z.string().trim().max(60).optional(),
    type: sessionType,
    /** Left out: the type's default (PIT, PIT, START, HOTLAP_START). */
    spawn: spawn.optional(),
    duration: z.number().int('A valid integer is required.').min(1).max(SESSION_MINUTES_MAX),
    duration_is_laps: z.boolean().default(false),
  })
  .strict();
export type SessionWrite = z.input<typeof sessionWrite>;

export const entryWrite = z
  .object({
    calendar: idNumber,
    car: idNumber.nullable().optional(),
    skin: idNumber.nullable().optional(),
    user: idNumber.nullable().optional(),
  })
  .strict();
export type EntryWrite = z.input<typeof entryWrite>;

/**
 * PATCH /races/events/{id} (PUT takes the same fields). Sessions, when given, replace the
 * event's sessions in the given order. Entries, when given, update the named seats' entries
 * (seats not named are left alone). `preset`, when given and not null, loads that preset's
 * template (track, cars, sessions, assists, penalties, fixed_setup, drift_mode) first; other
 * fields in the same request then apply on top.
 */
export const raceEventUpdate = z
  .object({
    track: idNumber.nullable(),
    cars: z.array(idNumber).max(100),
    sessions: z.array(sessionWrite).min(1).max(SESSIONS_MAX),
    entries: z.array(entryWrite).max(100),
    preset: idNumber.nullable(),
    assists: z.array(assistKey).max(ASSISTS.length),
    penalties: z.boolean(),
    fixed_setup: z.boolean(),
    drift_mode: z.boolean(),
  })
  .partial()
  .strict();
export type RaceEventUpdate = z.input<typeof raceEventUpdate>;

/** POST /races/presets {event, name} → 201 Preset: the event's settings saved as a template. */
export const presetCreate = z
  .object({ event: idNumber, name: z.string().trim().min(1).max(PRESET_NAME_MAX) })
  .strict();
export type PresetCreate = z.infer<typeof presetCreate>;

/**
 * GET /races/drivers?search=: people to put in a seat's entry (spec §7 "users" search), with
 * only what the picker shows, so race staff need no user-admin rights. At most 20.
 */
export const driversQuery = z.object({ search: z.string().trim().max(100).optional() });
export const driver = z.object({
  id: z.number().int(),
  name: z.string(),
  racer_name: z.string(),
});
export type Driver = z.infer<typeof driver>;
export const DRIVERS_MAX = 20;

/** GET /skins?car=&search= (paginated). */
export const skinsQuery = paginationQuery.extend({
  car: idText.optional(),
  search: z.string().trim().max(100).optional(),
});

// ---------------------------------------------------------------- host signals (spec §4)

export const HOST_SIGNALS = ['SESSION_START', 'SESSION_EXIT', 'RELOAD', 'MP_BRIEF'] as const;
export const hostSignal = z.enum(HOST_SIGNALS);
export type HostSignal = z.infer<typeof hostSignal>;

/**
 * A host signal, sent by staff either as POST /races/events/{id}/signal (→ 202) or as a socket
 * message `{type: "signal", signal, excluded_calendars?}`. SESSION_START may leave out seats.
 */
export const signalWrite = z
  .object({
    signal: hostSignal,
    excluded_calendars: z.array(idNumber).max(100).optional(),
  })
  .strict();
export type SignalWrite = z.infer<typeof signalWrite>;

const signalSeat = z.object({ calendar: z.number().int(), calendar_name: z.string() });
/**
 * POST /races/events/{id}/signal → 202: which seats the signal went to (a rig agent held the
 * event's socket for them) and which it did not reach (no rig connected), in seat order. A
 * SESSION_START's left-out seats are in neither list.
 */
export const signalResult = z.object({
  detail: z.string(),
  sent_to: z.array(signalSeat),
  not_connected: z.array(signalSeat),
});
export type SignalResult = z.infer<typeof signalResult>;

/** The desk's word for each host signal (the launcher's buttons, the signal's answer). */
export const HOST_SIGNAL_WORDS: Record<HostSignal, string> = {
  SESSION_START: 'Start',
  SESSION_EXIT: 'Stop',
  RELOAD: 'Reload',
  MP_BRIEF: 'Brief',
};

const names = (seats: readonly { calendar_name: string }[]) =>
  seats.map((s) => s.calendar_name).join(', ');
/** What a signal did, in words: never "sent" for a seat with no rig connected. */
export function signalAnswer(
  signal: HostSignal,
  sentTo: readonly { calendar_name: string }[],
  notConnected: readonly { calendar_name: string }[],
): string {
  const word = HOST_SIGNAL_WORDS[signal];
  if (sentTo.length === 0 && notConnected.length === 0) return `${word} reached no seat.`;
  if (sentTo.length === 0) return `${word} not sent: no rig connected at ${names(notConnected)}.`;
  const sent = `${word} sent to ${names(sentTo)}.`;
  if (notConnected.length === 0) return sent;
  return `${sent} Not sent to ${names(notConnected)}: no rig connected.`;
}

/** POST /races/events/{id}/ticket → 201: a one-time ticket for the socket, valid 30 s. */
export const TICKET_SECONDS = 30;
export const socketTicket = z.object({ ticket: z.string(), expires_in: z.number().int() });
export type SocketTicket = z.infer<typeof socketTicket>;

// ---------------------------------------------------------------- the socket

/*
 * /ws/launcher/events/{id}/?ticket=… (browsers) or with `Authorization: Rig <key>` (rigs).
 * Server → client, in order:
 *  - on connect: {type: "model_updated", data: <the whole RaceEvent>};
 *  - on each change: {type: "model_updated", data: {…only the changed fields…}} (merge them);
 *  - host signals: {type: "signal", signal, excluded_calendars: number[]};
 *  - peer messages: {type: "server", data, from} (from = the sender's seat, null for staff);
 *  - {type: "error", detail} for a message the server refused (the socket stays open).
 * A rig's socket on a party event is closed with code 4001 when its seat leaves the party (and
 * with 4404 when the event is gone): the rig then reads its seat's `event` again and reconnects.
 * A rig on its own seat's event follows `moved_to` when the seat joins a party.
 * Client → server:
 *  - staff: {type: "signal", signal, excluded_calendars?} (needs leaderboards.can_manage_race_events);
 *  - rigs: {type: "state", state: "exited" | "initialized" | "launched"} (stored on the
 *    rig's entry, then broadcast as a model_updated of `entries`);
 *  - anyone connected: {type: "server", data} (passed on to every other socket of the event).
 */
export const socketModelUpdated = z.object({
  type: z.literal('model_updated'),
  data: raceEvent.partial(),
});
export const socketSignal = z.object({
  type: z.literal('signal'),
  signal: hostSignal,
  excluded_calendars: z.array(z.number().int()),
});
export const socketPeer = z.object({
  type: z.literal('server'),
  data: z.unknown(),
  from: z.number().int().nullable(),
});
export const socketError = z.object({ type: z.literal('error'), detail: z.string() });
export const socketServerMessage = z.discriminatedUnion('type', [
  socketModelUpdated,
  socketSignal,
  socketPeer,
  socketError,
]);
export type SocketServerMessage = z.infer<typeof socketServerMessage>;

/** Largest message a client may send; bigger ones close the socket (1009). */
export const SOCKET_MESSAGE_MAX_BYTES = 4096;
/** Close codes of the launcher socket. */
export const SOCKET_CLOSE_LEFT_EVENT = 4001;
export const SOCKET_CLOSE_NO_EVENT = 4404;
export const socketClientMessage = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('signal') })
    .extend(signalWrite.shape)
    .strict(),
  z.object({ type: z.literal('state'), state: rigReport }).strict(),
  z.object({ type: z.literal('server'), data: z.unknown() }).strict(),
]);
export type SocketClientMessage = z.infer<typeof socketClientMessage>;

/** The AC dedicated server of a party (docs/decisions/0031): what staff can ask of it. */
export const AC_SERVER_COMMANDS = [
  'start',
  'stop',
  'next_session',
  'restart_session',
  'broadcast_chat',
  'kick',
] as const;
export const acServerCommand = z
  .object({
    command: z.enum(AC_SERVER_COMMANDS),
    /** broadcast_chat: the text. */
    message: z.string().trim().min(1).max(200).optional(),
    /** kick: the car id (the seat's index in the party, from 0). */
    car: z.number().int().min(0).max(254).optional(),
  })
  .strict();
export type AcServerCommand = z.infer<typeof acServerCommand>;
export const acServerStatus = z.object({
  running: z.boolean(),
  party: z.number().int().nullable(),
  /** The folder server_cfg.ini and entry_list.ini were written to. */
  folder: z.string().nullable(),
  pid: z.number().int().nullable(),
  /** The UDP port Paddock listens on for this server's plugin messages. */
  plugin_port: z.number().int().nullable(),
  /** For the seats' race.ini [REMOTE]: acServer's TCP/UDP game port and the join password. */
  game_port: z.number().int().nullable(),
  password: z.string().nullable(),
  /** The session the server reported last (name), null before the first. */
  session: z.string().nullable(),
  laps_stored: z.number().int(),
});
export type AcServerStatus = z.infer<typeof acServerStatus>;

/**
 * Why the launcher's Start is disabled, or null: the rigs need a track, and a car for every seat
 * started (its own, or the event's first allowed car). The signal route itself stays open (a
 * rig agent or the dedicated server link may supply its own; the AC server refuses what it
 * cannot run, decision 0033): this is the desk's guard against a start that loads nothing.
 */
export function startProblem(
  event: Pick<RaceEvent, 'track' | 'cars' | 'entries'>,
  excluded: readonly number[] = [],
): string | null {
  if (event.track === null) return 'Choose a track before starting.';
  const started = event.entries.filter((e) => !excluded.includes(e.calendar));
  const carless = started.filter((e) => e.car === null && event.cars.length === 0);
  if (carless.length)
    return `Choose a car before starting (${carless.map((e) => e.calendar_name).join(', ')}).`;
  return null;
}
