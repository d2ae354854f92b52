// `npm run seed:chain`: a chain of fifty venues five years in on an empty database (issue 33,
// decision 0092), with the environment `npm start` gives the server (DATA_DIR defaults to
// ./data). SEED_CHAIN_SCALE=0.1 writes a tenth of it.
import path from 'node:path';
import { ensureInstalled, root, run } from './lib.mjs';

await ensureInstalled();
const env = { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data') };
process.exit(
  await run(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/ops/seed-chain.ts'], {
    env,
  }),
);
