// server_cfg.ini and entry_list.ini for the Assetto Corsa dedicated server (acServer), written
// from a plain description of one race. Nothing here knows Paddock's database: the race-control
// feature maps a Race event onto `AcServerRace` (see docs/decisions/0026-ac-protocol.md).
import { writeIni, type IniValue } from './ini';

/** How the server lets cars use ABS / traction control: ABS_ALLOWED, TC_ALLOWED = 0 / 1 / 2. */
export type AcAssistAllowance = 'off' | 'factory' | 'any';

export const AC_ASSIST_ALLOWANCE: Record<AcAssistAllowance, number> = {
  off: 0,
  factory: 1,
  any: 2,
};

export interface AcServerAssists {
  /** off: no car may use ABS; factory: only cars that have it; any: every car. */
  abs: AcAssistAllowance;
  tractionControl: AcAssistAllowance;
  stabilityControl: boolean;
  autoClutch: boolean;
  /** Tyres start at their optimal temperature (session start, after a pit stop). */
  tyreBlankets: boolean;
  forceVirtualMirror?: boolean;
}

/** What happens to a car that jumps the start: START_RULE 0 / 1 / 2. */
export type AcStartRule = 'locked' | 'teleport' | 'drive-through';
const START_RULE: Record<AcStartRule, number> = { locked: 0, teleport: 1, 'drive-through': 2 };

export interface AcPenalties {
  /** Cutting the track costs a gas cut (RACE_GAS_PENALTY_DISABLED=0). Off: cuts are only counted. */
  cutPenalties: boolean;
  /** Tyres allowed outside the track before a lap counts as cut (ALLOWED_TYRES_OUT). */
  allowedTyresOut: number;
  startRule: AcStartRule;
  /** MAX_CONTACTS_PER_KM; -1 or absent: no limit. */
  maxContactsPerKm?: number;
}

export interface AcTimedSession {
  /** Shown in game; defaults to Practice / Qualify / Race. */
  name?: string;
  minutes: number;
}

export type AcRaceSession = {
  name?: string;
  /** Seconds on the grid before the start (WAIT_TIME). */
  waitSeconds?: number;
} & (
  | { laps: number; minutes?: undefined }
  | {
      minutes: number;
      laps?: undefined;
      /** One more lap after the leader's time runs out. */ extraLap?: boolean;
    }
);

export interface AcServerSessions {
  practice?: AcTimedSession;
  qualify?: AcTimedSession;
  race?: AcRaceSession;
}

/** One seat in the party: one [CAR_n] section; its index n is the car id the plugin reports. */
export interface AcServerEntry {
  /** Car folder name in content/cars. */
  model: string;
  /** Skin folder name in content/cars/<model>/skins; empty: the car's first skin. */
  skin: string;
  /** The driver's Steam64 id as the seat's sim reports it; empty: anyone may take the car. */
  guid: string;
  driverName: string;
  team?: string;
  ballastKg?: number;
  /** Restrictor, 0–100 %. */
  restrictor?: number;
  /** Setup file for this car (FIXED_SETUP); overrides AcServerRace.fixedSetup. */
  fixedSetup?: string;
}

export interface AcWeather {
  /** Folder name in content/weather, e.g. 3_clear. */
  graphics: string;
  ambientC: number;
  /** Added to the ambient temperature for the road. */
  roadOffsetC: number;
}

export interface AcServerRace {
  serverName: string;
  /** Join password; for a party, a fresh random one handed to the seats in race.ini [REMOTE]. */
  password: string;
  adminPassword: string;
  /** Track folder name in content/tracks. */
  track: string;
  /** Layout folder (CONFIG_TRACK); empty or absent for single-layout tracks. */
  trackLayout?: string;
  /** Cars allowed (CARS); defaults to the entries' models. Every entry's model must be here. */
  cars?: string[];
  sessions: AcServerSessions;
  assists: AcServerAssists;
  penalties: AcPenalties;
  /** Setup every car must use (FIXED_SETUP in each entry), e.g. "paddock.ini". */
  fixedSetup?: string;
  /** One per seat, in pit/grid order. */
  entries: AcServerEntry[];
  /** MAX_CLIENTS; the party size. Defaults to entries.length and must equal it. */
  maxClients?: number;
  ports: {
    /** Game ports clients connect to; acServer uses the same number for both by custom (9600). */
    tcp: number;
    udp: number;
    /** Lobby / HTTP info port (8081 by default). */
    http: number;
  };
  /** The UDP plugin link to Paddock. */
  plugin: {
    /** Where the server sends plugin messages: Paddock's listening address, "host:port". */
    address: string;
    /** The port the server listens on for Paddock's commands (UDP_PLUGIN_LOCAL_PORT). */
    localPort: number;
  };
  conditions?: {
    /** 0–100 % of realistic mechanical damage. */
    damagePercent?: number;
    /** 0 = no fuel use, 100 = realistic. */
    fuelRatePercent?: number;
    tyreWearPercent?: number;
    /** Sun angle in degrees (time of day). */
    sunAngle?: number;
    weather?: AcWeather;
  };
  /** Show the server in the public lobby; venues keep it off. */
  registerToLobby?: boolean;
}

/** The input cannot become a config the server would start with. Lists every problem. */
export class AcConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid Assetto Corsa server config: ${problems.join('; ')}`);
    this.name = 'AcConfigError';
  }
}

export interface AcServerConfigFiles {
  serverCfg: string;
  entryList: string;
}

const FOLDER = /^[A-Za-z0-9_.-]+$/;

function isPort(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}

function pluginPort(address: string): number | null {
  const m = /^[^:\s]+:(\d+)$/.exec(address);
  return m ? Number(m[1]) : null;
}

function positiveInt(n: number | undefined): boolean {
  return n !== undefined && Number.isInteger(n) && n > 0;
}

/** Every reason the race cannot be written; empty when it can. */
export function checkServerRace(race: AcServerRace): string[] {
  const problems: string[] = [];
  const cars = race.cars ?? [...new Set(race.entries.map((e) => e.model))];
  if (!race.serverName.trim()) problems.push('serverName is empty');
  if (!race.adminPassword) problems.push('adminPassword is empty');
  if (!FOLDER.test(race.track))
    problems.push(`track ${JSON.stringify(race.track)} is not a folder name`);
  if (race.trackLayout && !FOLDER.test(race.trackLayout)) {
    problems.push(`trackLayout ${JSON.stringify(race.trackLayout)} is not a folder name`);
  }
  if (cars.length === 0) problems.push('no cars');
  for (const car of cars) {
    if (!FOLDER.test(car)) problems.push(`car ${JSON.stringify(car)} is not a folder name`);
  }
  if (race.entries.length === 0) problems.push('no entries');
  const maxClients = race.maxClients ?? race.entries.length;
  if (maxClients !== race.entries.length) {
    problems.push(`maxClients ${maxClients} differs from the ${race.entries.length} entries`);
  }
  race.entries.forEach((e, i) => {
    if (!cars.includes(e.model)) problems.push(`entry ${i}: car ${e.model} is not in cars`);
    if (e.skin && !FOLDER.test(e.skin)) problems.push(`entry ${i}: skin ${JSON.stringify(e.skin)}`);
    if (e.guid && !/^\d{17}$/.test(e.guid)) problems.push(`entry ${i}: guid is not a Steam64 id`);
    if (e.restrictor !== undefined && (e.restrictor < 0 || e.restrictor > 100)) {
      problems.push(`entry ${i}: restrictor outside 0–100`);
    }
  });
  const { practice, qualify, race: raceSession } = race.sessions;
  if (!practice && !qualify && !raceSession) problems.push('no sessions');
  if (practice && !positiveInt(practice.minutes)) problems.push('practice minutes must be > 0');
  if (qualify && !positiveInt(qualify.minutes)) problems.push('qualify minutes must be > 0');
  if (raceSession) {
    const byLaps = raceSession.laps !== undefined;
    const byTime = raceSession.minutes !== undefined;
    if (byLaps === byTime) problems.push('race needs either laps or minutes');
    else if (byLaps && !positiveInt(raceSession.laps)) problems.push('race laps must be > 0');
    else if (byTime && !positiveInt(raceSession.minutes)) problems.push('race minutes must be > 0');
  }
  for (const [name, port] of Object.entries(race.ports)) {
    if (!isPort(port)) problems.push(`${name} port ${port} is not a port`);
  }
  const outPort = pluginPort(race.plugin.address);
  if (outPort === null || !isPort(outPort)) {
    problems.push(`plugin address ${JSON.stringify(race.plugin.address)} is not host:port`);
  }
  if (!isPort(race.plugin.localPort)) problems.push('plugin localPort is not a port');
  if (outPort === race.plugin.localPort) {
    problems.push('plugin address port and localPort must differ');
  }
  const { penalties } = race;
  if (!Number.isInteger(penalties.allowedTyresOut) || penalties.allowedTyresOut < -1) {
    problems.push('allowedTyresOut must be an integer ≥ -1');
  }
  return problems;
}

/** Writes server_cfg.ini and entry_list.ini. Throws AcConfigError listing every problem. */
export function writeServerConfig(race: AcServerRace): AcServerConfigFiles {
  const problems = checkServerRace(race);
  if (problems.length > 0) throw new AcConfigError(problems);

  const cars = race.cars ?? [...new Set(race.entries.map((e) => e.model))];
  const c = race.conditions ?? {};
  const weather = c.weather ?? { graphics: '3_clear', ambientC: 22, roadOffsetC: 6 };

  const server: Record<string, IniValue> = {
    NAME: race.serverName,
    CARS: cars.join(';'),
    TRACK: race.track,
    CONFIG_TRACK: race.trackLayout ?? '',
    SUN_ANGLE: c.sunAngle ?? 48,
    MAX_CLIENTS: race.entries.length,
    RACE_OVER_TIME: 120,
    ALLOWED_TYRES_OUT: race.penalties.allowedTyresOut,
    UDP_PORT: race.ports.udp,
    TCP_PORT: race.ports.tcp,
    HTTP_PORT: race.ports.http,
    PASSWORD: race.password,
    ADMIN_PASSWORD: race.adminPassword,
    // The session list runs once; Paddock stops the server when the party ends.
    LOOP_MODE: false,
    REGISTER_TO_LOBBY: race.registerToLobby ?? false,
    // Pickup mode with a locked entry list: each [CAR_n] is kept for its GUID (booking mode is
    // deprecated by Kunos), and nobody outside the party can join.
    PICKUP_MODE_ENABLED: true,
    LOCKED_ENTRY_LIST: true,
    SLEEP_TIME: 1,
    CLIENT_SEND_INTERVAL_HZ: 18,
    ABS_ALLOWED: AC_ASSIST_ALLOWANCE[race.assists.abs],
    TC_ALLOWED: AC_ASSIST_ALLOWANCE[race.assists.tractionControl],
    STABILITY_ALLOWED: race.assists.stabilityControl,
    AUTOCLUTCH_ALLOWED: race.assists.autoClutch,
    TYRE_BLANKETS_ALLOWED: race.assists.tyreBlankets,
    FORCE_VIRTUAL_MIRROR: race.assists.forceVirtualMirror ?? false,
    DAMAGE_MULTIPLIER: c.damagePercent ?? 0,
    FUEL_RATE: c.fuelRatePercent ?? 100,
    TYRE_WEAR_RATE: c.tyreWearPercent ?? 100,
    RACE_GAS_PENALTY_DISABLED: !race.penalties.cutPenalties,
    START_RULE: START_RULE[race.penalties.startRule],
    MAX_CONTACTS_PER_KM: race.penalties.maxContactsPerKm ?? -1,
    RACE_EXTRA_LAP: race.sessions.race?.minutes !== undefined && !!race.sessions.race.extraLap,
    QUALIFY_MAX_WAIT_PERC: 120,
    RESULT_SCREEN_TIME: 60,
    KICK_QUORUM: 85,
    VOTING_QUORUM: 80,
    VOTE_DURATION: 20,
    BLACKLIST_MODE: 1,
    NUM_THREADS: 2,
    UDP_PLUGIN_LOCAL_PORT: race.plugin.localPort,
    UDP_PLUGIN_ADDRESS: race.plugin.address,
  };

  const sections: Array<[string, Record<string, IniValue>]> = [['SERVER', server]];
  const { practice, qualify, race: r } = race.sessions;
  if (practice) {
    sections.push([
      'PRACTICE',
      { NAME: practice.name ?? 'Practice', TIME: practice.minutes, IS_OPEN: 1 },
    ]);
  }
  if (qualify) {
    sections.push([
      'QUALIFY',
      { NAME: qualify.name ?? 'Qualify', TIME: qualify.minutes, IS_OPEN: 1 },
    ]);
  }
  if (r) {
    sections.push([
      'RACE',
      {
        NAME: r.name ?? 'Race',
        LAPS: r.laps ?? 0,
        TIME: r.minutes ?? 0,
        WAIT_TIME: r.waitSeconds ?? 60,
        // 1: joining is open until the start (nobody else can join: the entry list is locked).
        IS_OPEN: 1,
      },
    ]);
  }
  sections.push([
    'DYNAMIC_TRACK',
    { SESSION_START: 96, RANDOMNESS: 1, LAP_GAIN: 10, SESSION_TRANSFER: 50 },
  ]);
  sections.push([
    'WEATHER_0',
    {
      GRAPHICS: weather.graphics,
      BASE_TEMPERATURE_AMBIENT: weather.ambientC,
      BASE_TEMPERATURE_ROAD: weather.roadOffsetC,
      VARIATION_AMBIENT: 0,
      VARIATION_ROAD: 0,
    },
  ]);

  const entries: Array<[string, Record<string, IniValue>]> = race.entries.map((e, i) => [
    `CAR_${i}`,
    {
      MODEL: e.model,
      SKIN: e.skin,
      SPECTATOR_MODE: 0,
      DRIVERNAME: e.driverName,
      TEAM: e.team ?? '',
      GUID: e.guid,
      BALLAST: e.ballastKg ?? 0,
      RESTRICTOR: e.restrictor ?? 0,
      FIXED_SETUP: e.fixedSetup ?? race.fixedSetup ?? '',
    },
  ]);

  return { serverCfg: writeIni(sections), entryList: writeIni(entries) };
}
