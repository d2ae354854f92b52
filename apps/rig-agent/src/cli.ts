// paddock-rig: the rig agent's command line (see README.md).
import './wine';
import { ConfigError, loadConfig, USAGE, type AgentConfig } from './config';
import { AssettoCorsaAdapter } from './ac-adapter';
import { AccAdapter } from './acc-adapter';
import { RigAgent } from './agent';
import { AGENT_VERSION } from './version';
import { forgetKey, keyFor } from './pairing';
import { HealthReporter, resultsFolder } from './health';
import { startUpdates } from './updates';
import { followSessions } from './follow-sessions';
import { install, uninstall } from './install-task';

if (process.argv.includes('--version')) {
  console.log(AGENT_VERSION);
  process.exit(0);
}
if (process.argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
const COMMANDS = ['pair', 'install', 'uninstall'] as const;
const args = process.argv.slice(2);
const command = COMMANDS.find((c) => c === args[0]);
if (command) args.shift();
if (command === 'uninstall')
  uninstall((line) => console.log(`[paddock-rig] ${line}`)).then(
    () => process.exit(0),
    (e: Error) => {
      console.error(e.message);
      process.exit(1);
    },
  );
let config: AgentConfig | undefined;
try {
  if (command !== 'uninstall') config = loadConfig(args);
} catch (e) {
  if (!(e instanceof ConfigError) && !(e instanceof TypeError)) throw e;
  console.error((e as Error).message);
  process.exit(2);
}
// One async start (the packaged agent is CommonJS: no top-level await).
async function run(config: AgentConfig) {
  if (command === 'install') {
    try {
      // The task starts the agent with the arguments given here (the server, the sim, folders).
      await install(args, (line) => console.log(`[paddock-rig] ${line}`));
      process.exit(0);
    } catch (e) {
      console.error((e as Error).message);
      process.exit(1);
    }
  }
  if (command === 'pair') forgetKey(config.keyFile);
  config.key = await keyFor({
    server: config.server,
    key: config.key,
    keyFile: config.keyFile,
    show: (code, expires) =>
      console.log(
        `\n  Pair this PC: type ${code} on its seat in Paddock\n  (Laps & Leaderboards → Rig Keys → Pair a Rig), before ${expires.toLocaleTimeString()}.\n`,
      ),
    log: (line) => console.log(`[paddock-rig] ${line}`),
  });
  const adapter = config.sim === 'acc' ? new AccAdapter(config) : new AssettoCorsaAdapter(config);
  const agent = new RigAgent({ config, adapter });
  const where =
    config.sim === 'acc' ? `ACC Config ${config.accConfigDir}` : `AC cfg ${config.acCfgDir}`;
  console.log(`[paddock-rig] ${config.server} · ${where} · queue ${agent.queue.file}`);
  agent.start();
  const simRunning = () => agent.state === 'launched';
  const log = (line: string) => console.log(`[paddock-rig] ${line}`);
  const health = new HealthReporter({
    server: config.server,
    key: config.key,
    version: AGENT_VERSION,
    folder: resultsFolder(config),
    simRunning,
    log,
  });
  health.start();
  // The booked session (issue 42, decision 0120): started, warned and ended on this rig.
  const sessions = followSessions(agent, { server: config.server, key: config.key, log });
  sessions.start();
  startUpdates({ config, simRunning, log, shutdown: () => shutdown() });
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    health.stop();
    sessions.stop();
    // The sim keeps running: a restart of the agent (an update, a service restart) must not end
    // a customer's race. SESSION_EXIT stops it.
    await agent.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}
if (config) void run(config);
