// `npm start`: install what is missing, build the web app, then run the server
// (which starts the embedded PostgreSQL, migrates, seeds the demo venue and prints the logins).
import path from 'node:path';
import { ensureInstalled, root, run } from './lib.mjs';

await ensureInstalled();
if ((await run('npm', ['run', 'build', '--silent'])) !== 0) process.exit(1);

const env = { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data') };
const tsx = path.join(root, 'node_modules/.bin/tsx');
const code = await run(tsx, ['apps/server/src/main.ts'], { env });
process.exit(code);
