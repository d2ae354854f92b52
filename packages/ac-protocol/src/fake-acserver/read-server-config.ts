// Reads server_cfg.ini + entry_list.ini the way the fake AC server needs them, and refuses what
// acServer would refuse or what would make it misbehave. Stricter than the real server on one
// point on purpose: an unknown key or section is refused (acServer ignores it silently, which
// hides typos in a generated file).
import { parseIni, type IniSection } from '../ini';

export type FakeSessionType = 'BOOK' | 'PRACTICE' | 'QUALIFY' | 'RACE';

export interface FakeSession {
  type: FakeSessionType;
  name: string;
  minutes: number;
  laps: number;
  waitSeconds: number;
}

export interface FakeEntry {
  carId: number;
  model: string;
  skin: string;
  guid: string;
  driverName: string;
  team: string;
}

export interface FakeServerConfig {
  serverName: string;
  track: string;
  trackConfig: string;
  cars: string[];
  maxClients: number;
  ports: { tcp: number; udp: number; http: number };
  plugin: { host: string; port: number; localPort: number };
  loop: boolean;
  sessions: FakeSession[];
  entries: FakeEntry[];
  weather: { graphics: string; ambientC: number; roadC: number };
}

export type ReadServerConfigResult =
  { ok: true; config: FakeServerConfig } | { ok: false; problems: string[] };

const SERVER_KEYS = new Set([
  'NAME',
  'CARS',
  'TRACK',
  'CONFIG_TRACK',
  'SUN_ANGLE',
  'MAX_CLIENTS',
  'RACE_OVER_TIME',
  'ALLOWED_TYRES_OUT',
  'UDP_PORT',
  'TCP_PORT',
  'HTTP_PORT',
  'PASSWORD',
  'ADMIN_PASSWORD',
  'LOOP_MODE',
  'REGISTER_TO_LOBBY',
  'PICKUP_MODE_ENABLED',
  'LOCKED_ENTRY_LIST',
  'SLEEP_TIME',
  'VOTING_QUORUM',
  'VOTE_DURATION',
  'KICK_QUORUM',
  'BLACKLIST_MODE',
  'TC_ALLOWED',
  'ABS_ALLOWED',
  'STABILITY_ALLOWED',
  'AUTOCLUTCH_ALLOWED',
  'TYRE_BLANKETS_ALLOWED',
  'FORCE_VIRTUAL_MIRROR',
  'DAMAGE_MULTIPLIER',
  'FUEL_RATE',
  'TYRE_WEAR_RATE',
  'CLIENT_SEND_INTERVAL_HZ',
  'SEND_BUFFER_SIZE',
  'RECV_BUFFER_SIZE',
  'QUALIFY_MAX_WAIT_PERC',
  'WELCOME_MESSAGE',
  'START_RULE',
  'NUM_THREADS',
  'LEGAL_TYRES',
  'MAX_BALLAST_KG',
  'UDP_PLUGIN_LOCAL_PORT',
  'UDP_PLUGIN_ADDRESS',
  'AUTH_PLUGIN_ADDRESS',
  'RACE_GAS_PENALTY_DISABLED',
  'RACE_PIT_WINDOW_START',
  'RACE_PIT_WINDOW_END',
  'REVERSED_GRID_RACE_POSITIONS',
  'TIME_OF_DAY_MULT',
  'RACE_EXTRA_LAP',
  'MAX_CONTACTS_PER_KM',
  'RESULT_SCREEN_TIME',
]);
const REQUIRED_SERVER_KEYS = [
  'NAME',
  'CARS',
  'TRACK',
  'MAX_CLIENTS',
  'TCP_PORT',
  'UDP_PORT',
  'HTTP_PORT',
];
/** Keys whose value must be an integer. */
const INTEGER_SERVER_KEYS = [
  'MAX_CLIENTS',
  'RACE_OVER_TIME',
  'ALLOWED_TYRES_OUT',
  'UDP_PORT',
  'TCP_PORT',
  'HTTP_PORT',
  'SLEEP_TIME',
  'VOTING_QUORUM',
  'VOTE_DURATION',
  'KICK_QUORUM',
  'BLACKLIST_MODE',
  'DAMAGE_MULTIPLIER',
  'FUEL_RATE',
  'TYRE_WEAR_RATE',
  'CLIENT_SEND_INTERVAL_HZ',
  'QUALIFY_MAX_WAIT_PERC',
  'NUM_THREADS',
  'MAX_BALLAST_KG',
  'UDP_PLUGIN_LOCAL_PORT',
  'RACE_PIT_WINDOW_START',
  'RACE_PIT_WINDOW_END',
  'REVERSED_GRID_RACE_POSITIONS',
  'MAX_CONTACTS_PER_KM',
  'RESULT_SCREEN_TIME',
];
const FLAG_SERVER_KEYS = [
  'LOOP_MODE',
  'REGISTER_TO_LOBBY',
  'PICKUP_MODE_ENABLED',
  'LOCKED_ENTRY_LIST',
  'STABILITY_ALLOWED',
  'AUTOCLUTCH_ALLOWED',
  'TYRE_BLANKETS_ALLOWED',
  'FORCE_VIRTUAL_MIRROR',
  'RACE_GAS_PENALTY_DISABLED',
  'RACE_EXTRA_LAP',
];
const RANGED_SERVER_KEYS: Record<string, [number, number]> = {
  ABS_ALLOWED: [0, 2],
  TC_ALLOWED: [0, 2],
  START_RULE: [0, 2],
  DAMAGE_MULTIPLIER: [0, 100],
};
const SESSION_KEYS = new Set(['NAME', 'TIME', 'LAPS', 'WAIT_TIME', 'IS_OPEN']);
const DYNAMIC_TRACK_KEYS = new Set(['SESSION_START', 'RANDOMNESS', 'LAP_GAIN', 'SESSION_TRANSFER']);
const WEATHER_KEYS = new Set([
  'GRAPHICS',
  'BASE_TEMPERATURE_AMBIENT',
  'BASE_TEMPERATURE_ROAD',
  'VARIATION_AMBIENT',
  'VARIATION_ROAD',
  'WIND_BASE_SPEED_MIN',
  'WIND_BASE_SPEED_MAX',
  'WIND_BASE_DIRECTION',
  'WIND_VARIATION_DIRECTION',
]);
const ENTRY_KEYS = new Set([
  'MODEL',
  'SKIN',
  'SPECTATOR_MODE',
  'DRIVERNAME',
  'TEAM',
  'GUID',
  'BALLAST',
  'RESTRICTOR',
  'FIXED_SETUP',
]);
/** acServer runs its sessions in this order, whatever the order in the file. */
const SESSION_ORDER: FakeSessionType[] = ['BOOK', 'PRACTICE', 'QUALIFY', 'RACE'];

const isInt = (v: string | undefined) => v !== undefined && /^-?\d+$/.test(v);
const int = (v: string | undefined, fallback = 0) => (isInt(v) ? Number(v) : fallback);

function unknownKeys(section: IniSection, known: Set<string>, file: string, problems: string[]) {
  for (const key of section.values.keys()) {
    if (!known.has(key)) problems.push(`${file} [${section.name}]: unknown key ${key}`);
  }
}

export function readServerConfig(serverCfg: string, entryList: string): ReadServerConfigResult {
  const problems: string[] = [];
  const cfg = parseIni(serverCfg);
  const list = parseIni(entryList);
  problems.push(...cfg.problems.map((p) => `server_cfg.ini ${p}`));
  problems.push(...list.problems.map((p) => `entry_list.ini ${p}`));

  // --- server_cfg.ini
  const server = cfg.sections.find((s) => s.name === 'SERVER');
  const sessionSections = new Map<FakeSessionType, IniSection>();
  let weatherSection: IniSection | undefined;
  for (const section of cfg.sections) {
    const name = section.name;
    if (name === 'SERVER') unknownKeys(section, SERVER_KEYS, 'server_cfg.ini', problems);
    else if ((SESSION_ORDER as string[]).includes(name)) {
      sessionSections.set(name as FakeSessionType, section);
      unknownKeys(section, SESSION_KEYS, 'server_cfg.ini', problems);
    } else if (name === 'DYNAMIC_TRACK') {
      unknownKeys(section, DYNAMIC_TRACK_KEYS, 'server_cfg.ini', problems);
    } else if (/^WEATHER_\d+$/.test(name)) {
      weatherSection ??= section;
      unknownKeys(section, WEATHER_KEYS, 'server_cfg.ini', problems);
    } else problems.push(`server_cfg.ini: unknown section [${name}]`);
  }
  if (!server) {
    problems.push('server_cfg.ini: missing section [SERVER]');
    return { ok: false, problems };
  }
  const get = (key: string) => server.values.get(key);
  for (const key of REQUIRED_SERVER_KEYS) {
    if (!get(key)) problems.push(`server_cfg.ini [SERVER]: missing ${key}`);
  }
  for (const key of INTEGER_SERVER_KEYS) {
    const v = get(key);
    if (v !== undefined && v !== '' && !isInt(v)) {
      problems.push(`server_cfg.ini [SERVER]: ${key}=${v} is not an integer`);
    }
  }
  for (const key of FLAG_SERVER_KEYS) {
    const v = get(key);
    if (v !== undefined && v !== '0' && v !== '1') {
      problems.push(`server_cfg.ini [SERVER]: ${key}=${v} must be 0 or 1`);
    }
  }
  for (const [key, [min, max]] of Object.entries(RANGED_SERVER_KEYS)) {
    const v = get(key);
    if (v !== undefined && (!isInt(v) || Number(v) < min || Number(v) > max)) {
      problems.push(`server_cfg.ini [SERVER]: ${key}=${v} must be ${min}..${max}`);
    }
  }
  const ports = {
    tcp: int(get('TCP_PORT')),
    udp: int(get('UDP_PORT')),
    http: int(get('HTTP_PORT')),
  };
  for (const [name, port] of Object.entries(ports)) {
    if (port < 1 || port > 65535) problems.push(`server_cfg.ini [SERVER]: ${name} port ${port}`);
  }
  if (ports.http === ports.tcp) problems.push('server_cfg.ini [SERVER]: HTTP_PORT equals TCP_PORT');

  const cars = (get('CARS') ?? '').split(';').filter(Boolean);
  const maxClients = int(get('MAX_CLIENTS'));
  if (get('MAX_CLIENTS') && maxClients < 1)
    problems.push('server_cfg.ini: MAX_CLIENTS must be ≥ 1');

  // The plugin link: the fake exists to speak it, so both keys are required here.
  const address = get('UDP_PLUGIN_ADDRESS') ?? '';
  const m = /^([^:\s]+):(\d+)$/.exec(address);
  const localPort = int(get('UDP_PLUGIN_LOCAL_PORT'));
  if (!m)
    problems.push(`server_cfg.ini: UDP_PLUGIN_ADDRESS ${JSON.stringify(address)} is not host:port`);
  if (!localPort) problems.push('server_cfg.ini: UDP_PLUGIN_LOCAL_PORT is not set');
  if (m && Number(m[2]) === localPort) {
    problems.push('server_cfg.ini: UDP_PLUGIN_ADDRESS port equals UDP_PLUGIN_LOCAL_PORT');
  }

  const sessions: FakeSession[] = [];
  for (const type of SESSION_ORDER) {
    const s = sessionSections.get(type);
    if (!s) continue;
    for (const key of ['TIME', 'LAPS', 'WAIT_TIME', 'IS_OPEN']) {
      const v = s.values.get(key);
      if (v !== undefined && !isInt(v))
        problems.push(`server_cfg.ini [${type}]: ${key}=${v} is not an integer`);
    }
    const session = {
      type,
      name: s.values.get('NAME') || type,
      minutes: int(s.values.get('TIME')),
      laps: int(s.values.get('LAPS')),
      waitSeconds: int(s.values.get('WAIT_TIME')),
    };
    if (type === 'RACE' && session.laps <= 0 && session.minutes <= 0) {
      problems.push('server_cfg.ini [RACE]: neither LAPS nor TIME is set');
    }
    if (type !== 'RACE' && session.minutes <= 0)
      problems.push(`server_cfg.ini [${type}]: TIME must be > 0`);
    sessions.push(session);
  }
  if (sessions.length === 0)
    problems.push('server_cfg.ini: no session ([PRACTICE], [QUALIFY] or [RACE])');

  // --- entry_list.ini
  const entries: FakeEntry[] = [];
  list.sections.forEach((section, i) => {
    if (section.name !== `CAR_${i}`) {
      problems.push(`entry_list.ini: section [${section.name}] where [CAR_${i}] was expected`);
      return;
    }
    unknownKeys(section, ENTRY_KEYS, 'entry_list.ini', problems);
    const model = section.values.get('MODEL') ?? '';
    if (!model) problems.push(`entry_list.ini [${section.name}]: missing MODEL`);
    else if (cars.length > 0 && !cars.includes(model)) {
      problems.push(`entry_list.ini [${section.name}]: MODEL ${model} is not in CARS`);
    }
    entries.push({
      carId: i,
      model,
      skin: section.values.get('SKIN') ?? '',
      guid: section.values.get('GUID') ?? '',
      driverName: section.values.get('DRIVERNAME') ?? '',
      team: section.values.get('TEAM') ?? '',
    });
  });
  if (entries.length === 0) problems.push('entry_list.ini: no [CAR_n] sections');
  if (maxClients > 0 && entries.length > maxClients) {
    problems.push(`entry_list.ini: ${entries.length} cars for MAX_CLIENTS=${maxClients}`);
  }
  // Kunos' manual: the entry list must hold at least MAX_CLIENTS cars.
  if (maxClients > 0 && entries.length > 0 && entries.length < maxClients) {
    problems.push(`entry_list.ini: ${entries.length} cars, fewer than MAX_CLIENTS=${maxClients}`);
  }

  if (problems.length > 0) return { ok: false, problems };
  const w = weatherSection?.values;
  const ambientC = int(w?.get('BASE_TEMPERATURE_AMBIENT'), 22);
  return {
    ok: true,
    config: {
      serverName: get('NAME') ?? '',
      track: get('TRACK') ?? '',
      trackConfig: get('CONFIG_TRACK') ?? '',
      cars,
      maxClients,
      ports,
      plugin: { host: m![1], port: Number(m![2]), localPort },
      loop: get('LOOP_MODE') === '1',
      sessions,
      entries,
      weather: {
        graphics: w?.get('GRAPHICS') ?? '3_clear',
        ambientC,
        roadC: ambientC + int(w?.get('BASE_TEMPERATURE_ROAD'), 6),
      },
    },
  };
}
