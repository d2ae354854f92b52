// The ACC dedicated server's cfg/ folder: configuration.json, settings.json, event.json,
// eventRules.json, assistRules.json and entrylist.json, from one plain description of a race
// (decision 0090). accServer reads its files as UTF-8 or UTF-16; it writes them as UTF-16 LE,
// and so do we (encodeAccConfigFile): the encoding the server itself produces is the one
// certain to be read back, driver names with any letter included.

export interface AccServerEntry {
  /** ACC's car model number (forcedCarModel). */
  carModel: number;
  /** Fixed per seat: it tells Paddock which seat a car is, in the broadcasting stream and in
   *  the results file, whoever drives it. */
  raceNumber: number;
  /** Steam64 id; '' when the seat's driver is unknown (the seat then takes whoever joins). */
  steamId: string;
  firstName: string;
  lastName: string;
  shortName: string;
}

export interface AccServerSession {
  type: 'P' | 'Q' | 'R';
  minutes: number;
  /** 0–23, the in-game hour the session starts at. */
  hourOfDay: number;
}

export interface AccServerRace {
  serverName: string;
  password: string;
  adminPassword: string;
  /** ACC's track key (`monza`, `spa`, `zandvoort`…). */
  track: string;
  sessions: AccServerSession[];
  assists: { stabilityControl: boolean; autoClutch: boolean; idealLine: boolean };
  entries: AccServerEntry[];
  ports: { tcp: number; udp: number };
}

export type AccConfigFiles = Record<
  | 'configuration.json'
  | 'settings.json'
  | 'event.json'
  | 'eventRules.json'
  | 'assistRules.json'
  | 'entrylist.json',
  string
>;

export class AccConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
    this.name = 'AccConfigError';
  }
}

const STEAM64 = /^\d{17}$/;

/**
 * Connections beyond the car slots (decision 0118). The handbook: the gap between `maxCarSlots`
 * and `maxConnections` is how many spectators or other irregular connections the server takes.
 * Two: a spectator or broadcast PC (the game that answers Paddock's broadcasting, when it is not
 * a seat), and a rig that rejoins while the server still counts its dropped connection
 * (`ignorePrematureDisconnects` keeps it a while).
 */
export const ACC_SPARE_CONNECTIONS = 2;

/** Every reason the server could not run this race, one line each (empty when it can). */
export function checkAccServerRace(race: AccServerRace): string[] {
  const problems: string[] = [];
  if (!race.track) problems.push('The race has no track.');
  if (race.sessions.length === 0) problems.push('The race has no sessions.');
  for (const s of race.sessions)
    if (!Number.isInteger(s.minutes) || s.minutes < 1 || s.minutes > 24 * 60)
      problems.push(`A ${s.type} session runs 1 to 1440 minutes, not ${s.minutes}.`);
  if (!race.sessions.some((s) => s.type !== 'P') && race.sessions.length > 0)
    problems.push('ACC needs a qualifying or race session after practice.');
  if (race.entries.length === 0) problems.push('The race has no entries.');
  if (race.entries.length > 30) problems.push('An ACC server takes 30 cars at most.');
  const numbers = new Set<number>();
  for (const e of race.entries) {
    if (e.raceNumber < 1 || e.raceNumber > 998 || numbers.has(e.raceNumber))
      problems.push(`Race number ${e.raceNumber} is out of range or used twice.`);
    numbers.add(e.raceNumber);
    if (e.steamId && !STEAM64.test(e.steamId)) problems.push(`${e.steamId} is not a Steam64 id.`);
    if (!Number.isInteger(e.carModel) || e.carModel < 0)
      problems.push('An entry has no car model.');
  }
  for (const [name, p] of Object.entries(race.ports))
    if (!Number.isInteger(p) || p < 1 || p > 65535)
      problems.push(`The ${name} port ${p} is out of range.`);
  if (race.ports.tcp === race.ports.udp) problems.push('The TCP and UDP ports must differ.');
  return problems;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function writeAccServerConfig(race: AccServerRace): AccConfigFiles {
  const problems = checkAccServerRace(race);
  if (problems.length) throw new AccConfigError(problems);
  const n = race.entries.length;
  return {
    'configuration.json': json({
      udpPort: race.ports.udp,
      tcpPort: race.ports.tcp,
      maxConnections: n + ACC_SPARE_CONNECTIONS,
      // The rigs find the server by ACC's LAN discovery (UDP 8999): serverList.json points the
      // game's scan at this host, and only a server with lanDiscovery on answers it. Off the
      // public lobby all the same: a venue's server is private.
      lanDiscovery: 1,
      registerToLobby: 0,
      configVersion: 1,
    }),
    'settings.json': json({
      serverName: race.serverName,
      adminPassword: race.adminPassword,
      // The entry list forces each seat's car; the group only has to let them all in.
      carGroup: 'FreeForAll',
      trackMedalsRequirement: 0,
      safetyRatingRequirement: -1,
      racecraftRatingRequirement: -1,
      password: race.password,
      spectatorPassword: race.adminPassword,
      maxCarSlots: n,
      // Results files: Paddock imports them when a session ends.
      dumpLeaderboards: 1,
      isRaceLocked: 1,
      randomizeTrackWhenEmpty: 0,
      allowAutoDQ: 0,
      shortFormationLap: 1,
      formationLapType: 3,
      ignorePrematureDisconnects: 1,
      configVersion: 1,
    }),
    'event.json': json({
      track: race.track,
      preRaceWaitingTimeSeconds: 80,
      sessionOverTimeSeconds: 120,
      ambientTemp: 22,
      cloudLevel: 0.1,
      rain: 0,
      weatherRandomness: 0,
      postQualySeconds: 10,
      postRaceSeconds: 15,
      sessions: race.sessions.map((s) => ({
        hourOfDay: s.hourOfDay,
        // Practice on Friday, qualifying Saturday, the race Sunday, as the server expects.
        dayOfWeekend: s.type === 'P' ? 1 : s.type === 'Q' ? 2 : 3,
        timeMultiplier: 1,
        sessionType: s.type,
        sessionDurationMinutes: s.minutes,
      })),
      configVersion: 1,
    }),
    'eventRules.json': json({
      qualifyStandingType: 1,
      pitWindowLengthSec: -1,
      driverStintTimeSec: -1,
      mandatoryPitstopCount: 0,
      maxTotalDrivingTime: -1,
      maxDriversCount: 1,
      isRefuellingAllowedInRace: true,
      isRefuellingTimeFixed: false,
      isMandatoryPitstopRefuellingRequired: false,
      isMandatoryPitstopTyreChangeRequired: false,
      isMandatoryPitstopSwapDriverRequired: false,
      tyreSetCount: 50,
    }),
    'assistRules.json': json({
      stabilityControlLevelMax: race.assists.stabilityControl ? 100 : 0,
      disableAutosteer: 1,
      disableAutoLights: 0,
      disableAutoWiper: 0,
      disableAutoEngineStart: 0,
      disableAutoPitLimiter: 0,
      disableAutoGear: 0,
      disableAutoClutch: race.assists.autoClutch ? 0 : 1,
      disableIdealLine: race.assists.idealLine ? 0 : 1,
    }),
    'entrylist.json': json({
      entries: race.entries.map((e) => ({
        drivers: [
          {
            firstName: e.firstName,
            lastName: e.lastName,
            shortName: e.shortName,
            driverCategory: 0,
            ...(e.steamId ? { playerID: `S${e.steamId}` } : {}),
          },
        ],
        raceNumber: e.raceNumber,
        forcedCarModel: e.carModel,
        overrideDriverInfo: 1,
        isServerAdmin: 0,
        defaultGridPosition: -1,
        ballastKg: 0,
        restrictor: 0,
      })),
      // Only the listed Steam ids join; a seat without one is open (ACC keeps the slot).
      forceEntryList: race.entries.every((e) => e.steamId) ? 1 : 0,
      configVersion: 1,
    }),
  };
}

/** A config file as accServer writes its own: UTF-16 LE with a byte-order mark. */
export function encodeAccConfigFile(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** Reads a file the way accServer does: UTF-16 LE (with or without BOM), else UTF-8. */
export function decodeAccConfigFile(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return bytes.subarray(3).toString('utf8');
  // No mark: UTF-16 LE text has a zero high byte after every ASCII character.
  if (bytes.length >= 2 && bytes[1] === 0 && bytes[0] !== 0) return bytes.toString('utf16le');
  return bytes.toString('utf8');
}
