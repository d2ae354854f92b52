// paddock-rig: the rig agent's command line (see README.md).
import './wine';
import { ConfigError, loadConfig, USAGE } from './config';
import { AssettoCorsaAdapter } from './ac-adapter';
import { AccAdapter } from './acc-adapter';
import { RigAgent } from './agent';
import { AGENT_VERSION } from './version';

if (process.argv.includes('--version')) {
  console.log(AGENT_VERSION);
  process.exit(0);
}
if (process.argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
let config;
try {
  config = loadConfig(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof ConfigError) && !(e instanceof TypeError)) throw e;
  console.error((e as Error).message);
  process.exit(2);
}
const adapter = config.sim === 'acc' ? new AccAdapter(config) : new AssettoCorsaAdapter(config);
const agent = new RigAgent({ config, adapter });
const where =
  config.sim === 'acc' ? `ACC Config ${config.accConfigDir}` : `AC cfg ${config.acCfgDir}`;
console.log(`[paddock-rig] ${config.server} · ${where} · queue ${agent.queue.file}`);
agent.start();
let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  // The sim keeps running: a restart of the agent (an update, a service restart) must not end
  // a customer's race. SESSION_EXIT stops it.
  await agent.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
