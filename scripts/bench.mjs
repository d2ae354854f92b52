// `npm run bench`: builds the web app when its sources changed (for its bundle sizes and the
// Lighthouse runs), then runs the benchmarks.
import path from 'node:path';
import { ensureInstalled, root, run } from './lib.mjs';
import { buildWeb } from './build-web.mjs';

await ensureInstalled();
await buildWeb();
process.exit(await run(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/bench/run.ts']));
