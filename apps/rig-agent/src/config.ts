// The agent's configuration: CLI flags over a JSON config file over defaults. The defaults are
// those of a Steam install of Assetto Corsa on Windows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultKeyFile } from './pairing';

export interface LaunchCommand {
  /** The program to start (acs.exe, a shell, a script). */
  command: string;
  args: string[];
  /** Working folder of the program (acs.exe wants the AC install folder). */
  cwd?: string;
  /**
   * The game's own image name when `command` is a launcher (Steam, a script): the sim is that
   * process, found by name whichever way it started, and Exit ends it (decision 0118).
   * Unset: the launched program is the game.
   */
  gameProcess?: string;
}

/** A dedicated server for multiplayer parties, when the venue runs one at a fixed address. */
export interface RemoteServer {
  ip: string;
  /** The server's TCP_PORT. */
  port: number;
  password: string;
}

export interface AgentConfig {
  /** Paddock's address, e.g. https://paddock.example.com. */
  server: string;
  /** The seat's rig key; empty: the stored one, or pairing (decision 0121). */
  key: string;
  /** Where a paired key is kept (this account only). */
  keyFile: string;
  /** Where the agent keeps its offline queue. */
  dataDir: string;
  /** Assetto Corsa's user config folder: race.ini and assists.ini are written here. */
  acCfgDir: string;
  /** Which sim this rig runs: Assetto Corsa (default) or ACC (decision 0090). */
  sim: 'ac' | 'acc';
  /** ACC's Config folder (Documents/Assetto Corsa Competizione/Config): serverList.json and
   *  broadcasting.json are written here. */
  accConfigDir: string;
  /** ACC's broadcasting port and password on this rig (Paddock's ACC_BROADCAST_*). */
  accBroadcast: { port: number; password: string };
  /** How the sim is started. */
  launch: LaunchCommand;
  /** Laps from the sim: a JSON-lines file an in-game app appends to (one lap a line). */
  lapsFile?: string;
  /** Name in race.ini; the seat's name when not given. */
  driverName?: string;
  /** Multiplayer parties join this server unless Paddock sends one on the socket. */
  acServer?: RemoteServer;
  /** First reconnect delay (2 s, the spec's socket retry); doubles up to `retryMaxMs`. */
  retryMs: number;
  retryMaxMs: number;
}

export class ConfigError extends Error {}

const isWindows = process.platform === 'win32';

/** Steam's default library on Windows. */
export const DEFAULT_AC_INSTALL = 'C:\\Program Files (x86)\\Steam\\steamapps\\common\\assettocorsa';

/** ACC's game process: Unreal's shipping binary (AC2\Binaries\Win64), whatever started it. */
export const ACC_GAME_PROCESS = 'AC2-Win64-Shipping.exe';

/** ACC through Steam (app 805550): steam.exe hands the start over and exits, or stays. */
export const DEFAULT_ACC_LAUNCH: LaunchCommand = {
  command: 'C:\\Program Files (x86)\\Steam\\steam.exe',
  args: ['-applaunch', '805550'],
  gameProcess: ACC_GAME_PROCESS,
};

export function defaults(
  env: NodeJS.ProcessEnv = process.env,
): Omit<AgentConfig, 'server' | 'key' | 'keyFile'> {
  const home = env.USERPROFILE ?? env.HOME ?? os.homedir();
  const programData = env.PROGRAMDATA ?? 'C:\\ProgramData';
  const join = isWindows ? path.win32.join : path.join;
  return {
    dataDir: isWindows ? join(programData, 'Paddock', 'rig') : join(home, '.paddock-rig'),
    acCfgDir: join(home, 'Documents', 'Assetto Corsa', 'cfg'),
    sim: 'ac',
    accConfigDir: join(home, 'Documents', 'Assetto Corsa Competizione', 'Config'),
    accBroadcast: { port: 9000, password: 'paddock' },
    lapsFile: join(home, 'Documents', 'Assetto Corsa', 'paddock', 'laps.jsonl'),
    launch: {
      command: path.win32.join(DEFAULT_AC_INSTALL, 'acs.exe'),
      args: [],
      cwd: DEFAULT_AC_INSTALL,
    },
    retryMs: 2000,
    retryMaxMs: 30_000,
  };
}

export const USAGE = `paddock-rig [pair|install|uninstall] --server URL [options]

  (no command)          run: without a key, show a pairing code first
  pair                  forget the stored key and pair this PC again
  install               start the agent at logon, in this user's session (Windows)
  uninstall             stop starting it at logon
  --server URL          Paddock's address (or "server" in the config file)
  --key RIGKEY          a rig key instead of pairing (or PADDOCK_RIG_KEY, or "key" in the file)
  --key-file FILE       where the paired key is kept (default: the user's own profile)
  --config FILE         a JSON config file (any of the keys below, camelCase)
  --data-dir DIR        where the offline queue is kept
  --ac-cfg-dir DIR      Assetto Corsa's cfg folder (race.ini, assists.ini)
  --sim ac|acc          the sim this rig runs (default ac)
  --acc-config-dir DIR  ACC's Config folder (serverList.json, broadcasting.json)
  --launch CMD          the program that starts the sim (default: acs.exe of a Steam install)
  --launch-arg ARG      an argument for it (repeat for more)
  --launch-cwd DIR      its working folder
  --game-process NAME   the game's image name when --launch is a launcher that exits
                        (default for --sim acc: AC2-Win64-Shipping.exe)
  --laps-file FILE      laps from the sim, one JSON line each (an in-game app writes it)
  --driver-name NAME    the name in race.ini (default: the seat's name)
  --help                this text`;

/** The configuration from argv (without node and the script), the environment and a file. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: 'string' },
      key: { type: 'string' },
      'key-file': { type: 'string' },
      config: { type: 'string' },
      'data-dir': { type: 'string' },
      'ac-cfg-dir': { type: 'string' },
      sim: { type: 'string' },
      'acc-config-dir': { type: 'string' },
      launch: { type: 'string' },
      'launch-arg': { type: 'string', multiple: true },
      'launch-cwd': { type: 'string' },
      'game-process': { type: 'string' },
      'driver-name': { type: 'string' },
      'laps-file': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) throw new ConfigError(USAGE);
  let file: Partial<AgentConfig> = {};
  if (values.config) {
    try {
      file = JSON.parse(fs.readFileSync(values.config, 'utf8')) as Partial<AgentConfig>;
    } catch (e) {
      throw new ConfigError(
        `Cannot read the config file ${values.config}: ${(e as Error).message}`,
      );
    }
  }
  const base = defaults(env);
  const sim = values.sim ?? file.sim ?? base.sim;
  // ACC's own launch unless one is given: through Steam, the game found by its name.
  const baseLaunch =
    sim === 'acc' && !file.launch && !values.launch ? DEFAULT_ACC_LAUNCH : base.launch;
  const launch: LaunchCommand = { ...baseLaunch, ...file.launch };
  if (values.launch) launch.command = values.launch;
  if (values.launch) launch.cwd = undefined;
  if (values['launch-arg']) launch.args = values['launch-arg'];
  if (values['launch-cwd']) launch.cwd = values['launch-cwd'];
  if (values['game-process'] !== undefined) launch.gameProcess = values['game-process'];
  if (sim === 'acc' && launch.gameProcess === undefined) launch.gameProcess = ACC_GAME_PROCESS;
  const config: AgentConfig = {
    ...base,
    ...file,
    server: values.server ?? file.server ?? '',
    key: values.key ?? env.PADDOCK_RIG_KEY ?? file.key ?? '',
    keyFile: values['key-file'] ?? file.keyFile ?? defaultKeyFile(env),
    dataDir: values['data-dir'] ?? file.dataDir ?? base.dataDir,
    acCfgDir: values['ac-cfg-dir'] ?? file.acCfgDir ?? base.acCfgDir,
    sim: sim as AgentConfig['sim'],
    accConfigDir: values['acc-config-dir'] ?? file.accConfigDir ?? base.accConfigDir,
    launch,
    driverName: values['driver-name'] ?? file.driverName,
    lapsFile: values['laps-file'] ?? file.lapsFile ?? base.lapsFile,
  };
  const problems: string[] = [];
  if (!config.server) problems.push('--server is required');
  else if (!/^https?:\/\//.test(config.server))
    problems.push('--server must start with http(s)://');
  if (config.sim !== 'ac' && config.sim !== 'acc') problems.push('--sim must be ac or acc');
  if (problems.length > 0) throw new ConfigError(`${problems.join('\n')}\n\n${USAGE}`);
  config.server = config.server.replace(/\/$/, '');
  return config;
}
