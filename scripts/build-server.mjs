// The server compiled once for `npm start`: apps/server/src and the workspace packages it imports
// bundled by esbuild into apps/server/dist/main.js (other packages stay in node_modules), the
// migrations copied beside it. Built again only when a source is newer than the last build.
// Run directly (`node scripts/build-server.mjs`) or through buildServer() (decision 0035).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { newestMtime, root } from './lib.mjs';

const serverDir = path.join(root, 'apps/server');
export const serverDist = path.join(serverDir, 'dist');
export const serverMain = path.join(serverDist, 'main.js');
/** `npm run backup` and `npm run restore` (src/ops/cli.ts, decision 0074). */
export const serverOps = path.join(serverDist, 'ops.js');
const stamp = path.join(serverDist, '.built-from');

const SOURCES = ['apps/server/src', 'packages/contract/src', 'packages/ac-protocol/src'];
const INPUTS = ['package-lock.json', 'apps/server/package.json', 'scripts/build-server.mjs'];

const newestSource = () => newestMtime([...SOURCES, ...INPUTS]);

export function serverBuildIsFresh() {
  if (!fs.existsSync(serverMain) || !fs.existsSync(serverOps) || !fs.existsSync(stamp))
    return false;
  return Number(fs.readFileSync(stamp, 'utf8')) >= newestSource();
}

/** Builds when needed; returns true when it built. */
export async function buildServer({ force = false } = {}) {
  if (!force && serverBuildIsFresh()) return false;
  const sourcesAt = newestSource();
  const { build } = await import('esbuild');
  fs.rmSync(serverDist, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: path.join(serverDir, 'src/main.ts'),
      ops: path.join(serverDir, 'src/ops/cli.ts'),
    },
    outdir: serverDist,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Source maps for stack traces in error reports (`node --enable-source-maps`).
    sourcemap: true,
    // Lines and names only: the sources are in the checkout (a smaller map loads faster, 0049).
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'paddock-externals',
        setup(b) {
          // Our workspace packages are TypeScript: compile them in. Everything else is loaded
          // from node_modules as it is (native modules, package data files, one copy of zod).
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@paddock/') || args.kind === 'entry-point'
              ? undefined
              : { path: args.path, external: true },
          );
          // The contract loader's pattern would pull test files in: they never run here.
          b.onLoad({ filter: /\.test\.ts$/ }, () => ({ contents: 'export {};', loader: 'js' }));
        },
      },
    ],
  });
  fs.cpSync(path.join(serverDir, 'src/db/migrations'), path.join(serverDist, 'migrations'), {
    recursive: true,
  });
  fs.writeFileSync(stamp, String(sourcesAt));
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const built = await buildServer({ force: process.argv.includes('--force') });
  console.log(
    built
      ? `Server built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${path.relative(root, serverDist)}`
      : 'Server build is up to date.',
  );
}
