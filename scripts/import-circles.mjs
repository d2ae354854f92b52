// The import graph has no circles (issue 32, decision 0086): madge over every workspace's
// TypeScript, type-only imports included (they are edges too: a type that needs its importer is
// the same tangle). First proves on a fixture that a type-only circle is found, so a madge
// upgrade or option change that stops seeing them fails here instead of passing silently.
// `node scripts/import-circles.mjs` exits 1 and prints each circle when there is one.
import path from 'node:path';
import madge from 'madge';
import { root } from './lib.mjs';

const SOURCES = [
  ['apps/server/src', 'apps/server/tsconfig.json'],
  ['apps/web/src', 'apps/web/tsconfig.json'],
  ['apps/rig-agent/src', 'apps/rig-agent/tsconfig.json'],
  ['packages/contract/src', 'packages/contract/tsconfig.json'],
  ['packages/ac-protocol/src', 'packages/ac-protocol/tsconfig.json'],
];

const withTypes = { skipTypeImports: false, skipAsyncImports: false };

async function circles(dir, tsConfig) {
  const result = await madge(path.join(root, dir), {
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(root, tsConfig),
    detectiveOptions: { ts: withTypes, tsx: { ...withTypes, jsx: true } },
  });
  const skipped = result.warnings().skipped;
  return { circles: result.circular(), skipped };
}

const fixture = await circles(
  'scripts/fixtures/type-only-circle',
  'scripts/fixtures/type-only-circle/tsconfig.json',
);
if (fixture.circles.length !== 1) {
  console.error('The import-circle check no longer sees a type-only circle (its fixture).');
  process.exit(1);
}

let found = 0;
for (const [dir, tsConfig] of SOURCES) {
  const { circles: list, skipped } = await circles(dir, tsConfig);
  found += list.length;
  console.log(`${dir}: ${list.length} circle(s)`);
  for (const circle of list) console.log(`  ${[...circle, circle[0]].join(' > ')}`);
  // An import madge cannot resolve is an edge it cannot see: a circle could hide behind it.
  for (const file of skipped) console.log(`  (could not resolve ${file})`);
}
process.exit(found === 0 ? 0 : 1);
