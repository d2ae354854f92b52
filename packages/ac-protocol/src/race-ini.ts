// The game-side files the rig agent writes before it starts Assetto Corsa (acs.exe reads them
// from Documents/Assetto Corsa/cfg): race.ini (what to drive, where, which sessions; with a
// [REMOTE] section the game joins a dedicated server instead) and assists.ini.
import { writeIni, type IniValue } from './ini';
import { AcConfigError } from './server-config';

/** Session types as race.ini numbers them (TYPE=). */
export const AC_CLIENT_SESSION_TYPE = {
  PRACTICE: 1,
  QUALIFYING: 2,
  RACE: 3,
  HOTLAP: 4,
  TIME_ATTACK: 5,
  DRIFT: 6,
  DRAG: 7,
} as const;
export type AcClientSessionType = keyof typeof AC_CLIENT_SESSION_TYPE;

/** Where the car appears (SPAWN_SET): in the pits, on the grid, or rolling into a hotlap. */
export type AcSpawn = 'PIT' | 'START' | 'HOTLAP_START';

export interface AcClientSession {
  name?: string;
  type: AcClientSessionType;
  spawn: AcSpawn;
  /** Length in minutes (timed sessions); 0 or absent for a race by laps. */
  minutes?: number;
  laps?: number;
}

export interface AcRaceIniInput {
  track: string;
  trackLayout?: string;
  car: {
    model: string;
    skin: string;
    /** Setup file name; empty for the car's default. */
    setup?: string;
  };
  driver: {
    name: string;
    team?: string;
    /** Three-letter nation code shown in game, e.g. ITA. */
    nationCode?: string;
  };
  /** Single player: the sessions to run, in order. Ignored by the game when `remote` is set. */
  sessions: AcClientSession[];
  penalties: boolean;
  fixedSetup: boolean;
  driftMode?: boolean;
  /** Jump start: 0 none, 1 back to the pits, 2 drive-through. */
  jumpStartPenalty?: 0 | 1 | 2;
  allowedTyresOut?: number;
  conditions?: {
    ambientC?: number;
    roadC?: number;
    /** Folder name in content/weather. */
    weather?: string;
    sunAngle?: number;
  };
  /** A multiplayer party: join this dedicated server. */
  remote?: {
    serverIp: string;
    /** The server's TCP_PORT. */
    serverPort: number;
    password: string;
    /** The seat's GUID as in entry_list.ini; empty lets the game use its Steam id. */
    guid?: string;
  };
}

/** Off / as the car comes from the factory / on: ABS= and TRACTION_CONTROL= 0 / 1 / 2. */
export type AcAssistSetting = 'off' | 'factory' | 'on';
const ASSIST_SETTING: Record<AcAssistSetting, number> = { off: 0, factory: 1, on: 2 };

export interface AcClientAssists {
  idealLine: boolean;
  autoBlip: boolean;
  /** Stability control, 0–100 %. */
  stabilityControl: number;
  autoBrake: boolean;
  autoShifter: boolean;
  abs: AcAssistSetting;
  tractionControl: AcAssistSetting;
  autoClutch: boolean;
  visualDamage: boolean;
  /** Mechanical damage 0–100 %. */
  damagePercent: number;
  fuelRate: boolean;
  tyreWear: boolean;
  tyreBlankets: boolean;
  slipstream: boolean;
}

export interface AcClientFiles {
  raceIni: string;
  assistsIni: string;
}

/** Every reason the input cannot become a race.ini; empty when it can. */
export function checkRaceIni(input: AcRaceIniInput): string[] {
  const problems: string[] = [];
  if (!input.track) problems.push('track is empty');
  if (!input.car.model) problems.push('car model is empty');
  if (!input.driver.name) problems.push('driver name is empty');
  if (!input.remote && input.sessions.length === 0) problems.push('no sessions');
  input.sessions.forEach((s, i) => {
    const timed = (s.minutes ?? 0) > 0;
    const laps = (s.laps ?? 0) > 0;
    if (s.type === 'RACE' && !timed && !laps)
      problems.push(`session ${i}: race needs laps or minutes`);
    if (s.type !== 'RACE' && s.type !== 'HOTLAP' && !timed) {
      problems.push(`session ${i}: ${s.type} needs minutes`);
    }
  });
  if (input.remote) {
    const p = input.remote.serverPort;
    if (!Number.isInteger(p) || p < 1 || p > 65535)
      problems.push('remote serverPort is not a port');
    if (!input.remote.serverIp) problems.push('remote serverIp is empty');
  }
  return problems;
}

/** race.ini for one seat. Throws AcConfigError listing every problem. */
export function writeRaceIni(input: AcRaceIniInput): string {
  const problems = checkRaceIni(input);
  if (problems.length > 0) throw new AcConfigError(problems);
  const c = input.conditions ?? {};
  const raceSession = input.sessions.find((s) => s.type === 'RACE');
  const sections: Array<[string, Record<string, IniValue>]> = [
    ['HEADER', { VERSION: 2 }],
    [
      'RACE',
      {
        TRACK: input.track,
        CONFIG_TRACK: input.trackLayout ?? '',
        MODEL: input.car.model,
        MODEL_CONFIG: '',
        SKIN: input.car.skin,
        CARS: 1,
        AI_LEVEL: 100,
        FIXED_SETUP: input.fixedSetup,
        PENALTIES: input.penalties,
        DRIFT_MODE: input.driftMode ?? false,
        JUMP_START_PENALTY: input.jumpStartPenalty ?? 0,
        RACE_LAPS: raceSession?.laps ?? 0,
      },
    ],
    [
      'CAR_0',
      {
        SETUP: input.car.setup ?? '',
        SKIN: input.car.skin,
        // "-": the player's car, which is [RACE] MODEL (the convention of the game's own files).
        MODEL: '-',
        MODEL_CONFIG: '',
        BALLAST: 0,
        RESTRICTOR: 0,
        DRIVER_NAME: input.driver.name,
        NATIONALITY: input.driver.nationCode ?? '',
        NATION_CODE: input.driver.nationCode ?? '',
      },
    ],
  ];
  input.sessions.forEach((s, i) => {
    sections.push([
      `SESSION_${i}`,
      {
        NAME: s.name ?? defaultSessionName(s.type),
        TYPE: AC_CLIENT_SESSION_TYPE[s.type],
        DURATION_MINUTES: s.minutes ?? 0,
        LAPS: s.laps ?? 0,
        SPAWN_SET: s.spawn,
      },
    ]);
  });
  const remote = input.remote;
  sections.push([
    'REMOTE',
    remote
      ? {
          ACTIVE: 1,
          SERVER_IP: remote.serverIp,
          SERVER_PORT: remote.serverPort,
          NAME: input.driver.name,
          TEAM: input.driver.team ?? '',
          GUID: remote.guid ?? '',
          REQUESTED_CAR: input.car.model,
          PASSWORD: remote.password,
        }
      : { ACTIVE: 0 },
  ]);
  sections.push(
    ['TEMPERATURE', { AMBIENT: c.ambientC ?? 22, ROAD: c.roadC ?? 28 }],
    ['WEATHER', { NAME: c.weather ?? '3_clear' }],
    ['LIGHTING', { SUN_ANGLE: c.sunAngle ?? 48, TIME_MULT: 1, CLOUD_SPEED: 0.2 }],
    ['WIND', { SPEED_KMH_MIN: 0, SPEED_KMH_MAX: 0, DIRECTION_DEG: 0 }],
    ['LAP_INVALIDATOR', { ALLOWED_TYRES_OUT: input.allowedTyresOut ?? 2 }],
    ['DYNAMIC_TRACK', { SESSION_START: 96, RANDOMNESS: 1, LAP_GAIN: 10, SESSION_TRANSFER: 50 }],
    [
      'GHOST_CAR',
      { RECORDING: 0, PLAYING: 0, LOAD: 0, FILE: '', ENABLED: 0, SECONDS_ADVANTAGE: 0 },
    ],
    ['REPLAY', { ACTIVE: 0, FILENAME: '' }],
    ['RESTART', { ACTIVE: 0 }],
    ['BENCHMARK', { ACTIVE: 0 }],
    ['OPTIONS', { USE_MPH: 0 }],
  );
  return writeIni(sections);
}

function defaultSessionName(type: AcClientSessionType): string {
  const names: Record<AcClientSessionType, string> = {
    PRACTICE: 'Practice',
    QUALIFYING: 'Qualifying',
    RACE: 'Race',
    HOTLAP: 'Hotlap',
    TIME_ATTACK: 'Time Attack',
    DRIFT: 'Drift',
    DRAG: 'Drag',
  };
  return names[type];
}

/** assists.ini for one seat. */
export function writeAssistsIni(a: AcClientAssists): string {
  if (a.stabilityControl < 0 || a.stabilityControl > 100) {
    throw new AcConfigError(['stabilityControl outside 0–100']);
  }
  if (a.damagePercent < 0 || a.damagePercent > 100) {
    throw new AcConfigError(['damagePercent outside 0–100']);
  }
  return writeIni([
    [
      'ASSISTS',
      {
        IDEAL_LINE: a.idealLine,
        AUTO_BLIP: a.autoBlip,
        STABILITY_CONTROL: a.stabilityControl,
        AUTO_BRAKE: a.autoBrake,
        AUTO_SHIFTER: a.autoShifter,
        ABS: ASSIST_SETTING[a.abs],
        TRACTION_CONTROL: ASSIST_SETTING[a.tractionControl],
        AUTO_CLUTCH: a.autoClutch,
        VISUALDAMAGE: a.visualDamage,
        DAMAGE: a.damagePercent,
        FUEL_RATE: a.fuelRate,
        TYRE_WEAR: a.tyreWear,
        TYRE_BLANKETS: a.tyreBlankets,
        SLIPSTREAM: a.slipstream,
      },
    ],
  ]);
}

/** Both files for one seat. */
export function writeClientFiles(race: AcRaceIniInput, assists: AcClientAssists): AcClientFiles {
  return { raceIni: writeRaceIni(race), assistsIni: writeAssistsIni(assists) };
}
