// A party's Race event as the ACC dedicated server's race (docs/decisions/0090). Pure, as the AC
// mapping (server-race.ts): the look-ups are done by the caller.
import type { RaceEvent } from '@paddock/contract/races';
import type { AccServerRace, AccServerSession } from '@paddock/ac-protocol/acc/server-config';
import { checkAccServerRace } from '@paddock/ac-protocol/acc/server-config';
import { ACC_CARS } from '../laps/results-files';
import { ServerRaceError, type ServerRaceLookups } from '../ac-server/server-race';

/** ACC's car model number of a catalogue key (`mercedes_amg_gt3_evo`, or `acc_model_31` for a
 *  model an import added before it had a name); null when the key is no ACC car. */
export function accCarModel(key: string): number | null {
  const known = Object.entries(ACC_CARS).find(([, c]) => c.key === key);
  if (known) return Number(known[0]);
  const m = /^acc_model_(\d+)$/.exec(key);
  return m ? Number(m[1]) : null;
}

export interface AccServerLinkInfo {
  serverName: string;
  password: string;
  adminPassword: string;
  ports: { tcp: number; udp: number };
}

/** A seat's race number is its place in the event + 1: fixed, so it names the seat. */
export const raceNumberOf = (seatIndex: number) => seatIndex + 1;

/**
 * One entry per seat in seat order (race number = index + 1), the seat's car (the event's first
 * when none), its driver's name, and the seat's Steam id (else the driver's); sessions in the event's order, practice and hotlap
 * as ACC practice; ACC's assists that a server can forbid.
 */
export function toAccServerRace(
  event: RaceEvent,
  lookups: ServerRaceLookups,
  link: AccServerLinkInfo,
): { race: AccServerRace; seats: number[] } {
  const problems: string[] = [];
  if (!lookups.track) problems.push('The event has no track.');
  if (event.cars.length === 0) problems.push('The event has no cars.');
  if (event.entries.length === 0) problems.push('The event has no seats.');
  const sessions: AccServerSession[] = [];
  for (const s of event.sessions) {
    if (s.duration_is_laps) {
      problems.push(`ACC runs sessions for minutes, not laps: "${s.name}".`);
      continue;
    }
    const type = s.type === 'QUALIFYING' ? 'Q' : s.type === 'RACE' ? 'R' : 'P';
    sessions.push({ type, minutes: s.duration, hourOfDay: 14 });
  }
  const entries = event.entries.map((e, i) => {
    const key = lookups.cars[e.car ?? event.cars[0]] ?? '';
    const carModel = accCarModel(key);
    if (carModel === null) problems.push(`${key || 'A car'} is not an ACC car.`);
    const driver = lookups.drivers[e.calendar] ?? { name: '', guid: '' };
    const name = (driver.name || e.calendar_name).trim();
    const [first, ...rest] = name.split(/\s+/);
    return {
      carModel: carModel ?? 0,
      raceNumber: raceNumberOf(i),
      // The seat's Steam account first: on a venue rig the game plays on the PC's account, so
      // that is who ACC sees at this seat (decision 0118); else the driver's own, when known.
      steamId: lookups.seatSteamIds?.[e.calendar] || driver.guid,
      firstName: first ?? '',
      lastName: rest.join(' '),
      shortName: name.replace(/\s+/g, '').slice(0, 3).toUpperCase(),
    };
  });
  if (problems.length) throw new ServerRaceError(problems);
  const race: AccServerRace = {
    serverName: link.serverName,
    password: link.password,
    adminPassword: link.adminPassword,
    track: lookups.track!.key,
    sessions,
    assists: {
      stabilityControl: event.assists.includes('stability_control'),
      autoClutch: event.assists.includes('auto_clutch'),
      idealLine: event.assists.includes('ideal_line'),
    },
    entries,
    ports: link.ports,
  };
  const more = checkAccServerRace(race);
  if (more.length) throw new ServerRaceError(more);
  return { race, seats: event.entries.map((e) => e.calendar) };
}
