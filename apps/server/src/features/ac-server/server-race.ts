// A party's Race event as the AC dedicated server's race (docs/decisions/0026 §Mapping, 0031).
// Pure: the database look-ups are done by the caller and passed in.
import type { AssistKey, RaceEvent } from '@paddock/contract/races';
import type { AcServerRace, AcServerSessions } from '@paddock/ac-protocol/server-config';

/** The setup every car uses when the event has a fixed setup: the venue puts this file in
 *  acServer's setups folder (docs/rigs.md). */
export const FIXED_SETUP_FILE = 'paddock.ini';

export interface ServerRaceLookups {
  /** The event's track: content folder and layout folder ('' for single-layout tracks). */
  track: { key: string; layout: string } | null;
  /** Car id → content folder. */
  cars: Record<number, string>;
  /** Car id → its name in the catalogue (the timing tower shows it). */
  carNames?: Record<number, string>;
  /** Skin id → skin folder. */
  skins: Record<number, string>;
  /** Seat (calendar id) → who drives it: racer name and Steam64 id ('' when unknown). */
  drivers: Record<number, { name: string; guid: string }>;
  /** Seat (calendar id) → the SteamID64 its PC plays on, for the seats that have one (0118). */
  seatSteamIds?: Record<number, string>;
}

export interface ServerRaceLink {
  serverName: string;
  password: string;
  adminPassword: string;
  ports: { tcp: number; udp: number; http: number };
  plugin: { address: string; localPort: number };
}

export interface MappedServerRace {
  race: AcServerRace;
  /** Car id (the entry's index in entry_list.ini) → seat (calendar id). */
  seats: number[];
}

/** The event cannot run on the dedicated server; `problems` says why, one line each. */
export class ServerRaceError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
    this.name = 'ServerRaceError';
  }
}

const has = (event: RaceEvent, assist: AssistKey) => event.assists.includes(assist);

/** The name a seat's car runs under: its driver's (the booked customer's), else the seat's. */
export function seatDriverName(lookups: ServerRaceLookups, entry: RaceEvent['entries'][number]) {
  return lookups.drivers[entry.calendar]?.name || entry.calendar_name;
}

/**
 * Maps the event onto `AcServerRace`: one entry per seat in seat order (car id = index), the
 * seat's car and skin (the event's first car when the seat has none), its driver's GUID;
 * sessions by type (acServer runs at most one of each, practice → qualify → race; a HOTLAP
 * session is practice on a server); assists and penalties through fixed tables.
 */
export function toServerRace(
  event: RaceEvent,
  lookups: ServerRaceLookups,
  link: ServerRaceLink,
): MappedServerRace {
  const problems: string[] = [];
  if (!lookups.track) problems.push('The event has no track.');
  if (event.cars.length === 0) problems.push('The event has no cars.');
  if (event.entries.length === 0) problems.push('The event has no seats.');

  const sessions: AcServerSessions = {};
  for (const s of event.sessions) {
    const kind = s.type === 'QUALIFYING' ? 'qualify' : s.type === 'RACE' ? 'race' : 'practice';
    if (sessions[kind]) {
      problems.push(`The server runs one ${kind} session; this event has more.`);
      continue;
    }
    if (kind === 'race') {
      sessions.race = s.duration_is_laps
        ? { name: s.name, laps: s.duration }
        : { name: s.name, minutes: s.duration };
    } else if (s.duration_is_laps) {
      problems.push(`A ${kind} session on the server runs for minutes, not laps.`);
    } else sessions[kind] = { name: s.name, minutes: s.duration };
  }
  if (event.sessions.length === 0) problems.push('The event has no sessions.');

  const firstCar = event.cars[0];
  const entries = event.entries.map((e) => {
    const carId = e.car ?? firstCar;
    const driver = lookups.drivers[e.calendar] ?? { name: '', guid: '' };
    return {
      model: lookups.cars[carId] ?? '',
      skin: e.skin !== null && e.car !== null ? (lookups.skins[e.skin] ?? '') : '',
      guid: driver.guid,
      driverName: seatDriverName(lookups, e),
      team: e.calendar_name,
    };
  });
  if (problems.length) throw new ServerRaceError(problems);

  const race: AcServerRace = {
    serverName: link.serverName,
    password: link.password,
    adminPassword: link.adminPassword,
    track: lookups.track!.key,
    trackLayout: lookups.track!.layout,
    cars: event.cars.map((c) => lookups.cars[c]).filter(Boolean),
    sessions,
    assists: {
      abs: has(event, 'abs') ? 'factory' : 'off',
      tractionControl: has(event, 'traction_control') ? 'factory' : 'off',
      stabilityControl: has(event, 'stability_control'),
      autoClutch: has(event, 'auto_clutch'),
      tyreBlankets: has(event, 'tyre_blankets'),
    },
    // Penalties on: cuts cost a gas cut, a jump start a drive-through. Off: cuts only counted
    // (a cut lap is still not valid for the boards), a jump start puts the car back.
    penalties: event.penalties
      ? { cutPenalties: true, allowedTyresOut: 2, startRule: 'drive-through' }
      : { cutPenalties: false, allowedTyresOut: 2, startRule: 'teleport' },
    ...(event.fixed_setup ? { fixedSetup: FIXED_SETUP_FILE } : {}),
    entries,
    maxClients: entries.length,
    ports: link.ports,
    plugin: link.plugin,
  };
  return { race, seats: event.entries.map((e) => e.calendar) };
}
