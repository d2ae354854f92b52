// `npm run bench`: builds the web app (for its bundle size), then runs the server benchmarks.
import path from 'node:path';
import { ensureInstalled, root, run } from './lib.mjs';

await ensureInstalled();
if ((await run('npm', ['run', 'build', '--silent'])) !== 0) process.exit(1);
process.exit(await run(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/bench/run.ts']));
