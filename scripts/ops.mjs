// `npm run backup` and `npm run restore -- FILE`: the compiled server's operations entry
// (apps/server/src/ops/cli.ts), with the environment `npm start` gives the server (DATA_DIR
// defaults to ./data). Decision 0074.
import fs from 'node:fs';
import path from 'node:path';
import { ensureInstalled, root, run } from './lib.mjs';

const [command, file] = process.argv.slice(2);
await ensureInstalled();
const { buildServer, serverOps } = await import('./build-server.mjs');
await buildServer();
const env = { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data') };
// npm runs scripts from the project root; a relative FILE means where the command was typed.
const args = file
  ? [command, path.resolve(process.env.INIT_CWD ?? process.cwd(), file)]
  : [command];
const flags = JSON.parse(fs.readFileSync(path.join(root, 'apps/server/node-flags.json'), 'utf8'));
process.exit(await run(process.execPath, [...flags, serverOps, ...args], { env }));
