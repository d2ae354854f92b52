// `npm start`: install what is missing, build the web app and the server when their sources
// changed, then run the compiled server with node (it starts the embedded PostgreSQL, migrates,
// seeds the demo venue and prints the logins). Decision 0035.
import fs from 'node:fs';
import path from 'node:path';
import { ensureInstalled, root } from './lib.mjs';
import { supervise } from './supervise.mjs';
import { buildWeb } from './build-web.mjs';

// START_TIMING=1 prints when each step ended, in ms since this script started (decision 0049).
const step = (name) => {
  if (process.env.START_TIMING)
    console.log(`[npm start] ${performance.now().toFixed(0)} ms ${name}`);
};
await ensureInstalled();
step('install checked');
const { buildServer, serverMain } = await import('./build-server.mjs');
try {
  await Promise.all([buildWeb(), buildServer()]);
  step('builds checked');
} catch (error) {
  console.error(error);
  process.exit(1);
}

const env = { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data') };
// Source maps for stack traces, and a bounded heap (decision 0057): apps/server/node-flags.json.
const flags = JSON.parse(fs.readFileSync(path.join(root, 'apps/server/node-flags.json'), 'utf8'));
// Supervised: an unexpected stop is restarted with back-off, a stop asked for is not (0071).
const code = await supervise(process.execPath, [...flags, serverMain], { env, cwd: root });
process.exit(code);
