// fake-acserver --cfg <folder with server_cfg.ini and entry_list.ini>
//               [--results <results.json>] [--speed <factor>] [--results-dir <folder>]
//               [--command-port <port>]
// Exits 2 with one line per problem when acServer would refuse the config.
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FakeAcServerConfigError, startFakeAcServer } from './fake-acserver';

const usage =
  'usage: fake-acserver --cfg <dir> [--results <file.json>] [--speed <n>] [--results-dir <dir>] [--command-port <port>]';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      cfg: { type: 'string' },
      results: { type: 'string' },
      speed: { type: 'string' },
      'results-dir': { type: 'string' },
      'command-port': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || !values.cfg) {
    console.log(usage);
    return values.help ? 0 : 1;
  }
  const serverCfg = await fs.readFile(path.join(values.cfg, 'server_cfg.ini'), 'utf8');
  const entryList = await fs.readFile(path.join(values.cfg, 'entry_list.ini'), 'utf8');
  const resultsJson = values.results ? await fs.readFile(values.results, 'utf8') : undefined;
  try {
    const server = await startFakeAcServer({
      serverCfg,
      entryList,
      commandPort: values['command-port'] ? Number(values['command-port']) : undefined,
      replay: resultsJson
        ? {
            resultsJson,
            speed: values.speed ? Number(values.speed) : 1,
            resultsDir: values['results-dir'],
            resultsFileName: values.results ? path.basename(values.results) : undefined,
          }
        : undefined,
      log: (line) => console.log(line),
    });
    const { host, port } = server.config.plugin;
    console.log(
      `fake-acserver: commands on udp 127.0.0.1:${server.commandPort}, plugin at ${host}:${port}`,
    );
    await server.replayDone;
    if (resultsJson) console.log('fake-acserver: replay done; Ctrl-C to stop');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.stop();
    return 0;
  } catch (e) {
    if (e instanceof FakeAcServerConfigError) {
      console.error('fake-acserver: acServer would refuse this config:');
      for (const p of e.problems) console.error(`  ${p}`);
      return 2;
    }
    throw e;
  }
}

// Piped into `head` and the like: a closed stdout ends the program quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
process.exitCode = await main();
