// `npm test`: everything, in order: types, lint, the import graph (no circles), the Assetto Corsa
// protocol package, the rig agent against a real server, server tests on the embedded PostgreSQL, the same again on the
// machine's own PostgreSQL when one answers, web tests, browser journeys, and the wall-screen
// soak.
// Prints one closing line with the total number of tests passed and failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureChromium,
  ensureHaproxy,
  ensureInstalled,
  ensureWine,
  freePort,
  postgresReachable,
  root,
  run,
} from './lib.mjs';

await ensureInstalled();
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-reports-'));
const steps = [];
let passed = 0;
let failed = 0;
/** The first failure of each failed step, printed again at the very end (CI shows the tail). */
const firstFailures = [];
/** Tests that passed only when retried: they pass, and are named at the end. */
const flakyNotes = [];

// eslint-disable-next-line no-control-regex
const plain = (text) => String(text).replace(/\x1b\[[0-9;]*m/g, '');

function firstVitestFailure(report) {
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') return `${t.fullName}\n${t.failureMessages?.[0] ?? ''}`;
    }
    if (file.status === 'failed' && file.message) return `${file.name}\n${file.message}`;
  }
  return null;
}

function firstPlaywrightFailure(report, status = 'unexpected') {
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const bad = (t.results ?? []).find((r) => r.error);
        if (bad && t.status === status)
          return `${spec.file}: ${spec.title}\n${bad.error.message ?? ''}\n${bad.error.snippet ?? ''}`;
      }
    }
    for (const child of suite.suites ?? []) {
      const found = walk(child);
      if (found) return found;
    }
    return null;
  };
  for (const suite of report.suites ?? []) {
    const found = walk(suite);
    if (found) return found;
  }
  return report.errors?.[0]?.message ?? null;
}

function count(file, kind) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (kind === 'vitest') {
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      return firstVitestFailure(report);
    }
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    if (report.stats.flaky)
      flakyNotes.push(
        `${report.stats.flaky} test(s) passed only on retry; the first one's first try:\n${firstPlaywrightFailure(report, 'flaky')}`,
      );
    return firstPlaywrightFailure(report);
  } catch {
    return null;
  }
}

async function step(name, cmd, args, opts = {}) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const code = await run(cmd, args, opts);
  const before = failed;
  const failure = opts.report ? count(opts.report, opts.kind) : null;
  // A report with failed tests fails its step, whatever the runner's exit code said.
  const ok = code === 0 && failed === before;
  // A failing step always counts as at least one failure, even when its report is missing.
  if (opts.report && !ok && failed === before) failed += 1;
  if (!opts.report && ok) passed += 1;
  if (!opts.report && !ok) failed += 1;
  steps.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) });
  if (!ok) firstFailures.push({ name, text: failure ?? `exit code ${code}` });
}

const vitest = path.join(root, 'node_modules/.bin/vitest');
const machinePg = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

await step('type-check', 'npm', ['run', 'typecheck', '--silent']);
await step('lint', 'npm', ['run', 'lint', '--silent']);
await step('import graph has no circles (madge, type imports included)', 'node', [
  path.join(root, 'scripts/import-circles.mjs'),
]);
await step(
  'Assetto Corsa protocol tests (codec, config files, fake AC server)',
  vitest,
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/ac-protocol.json`],
  {
    cwd: path.join(root, 'packages/ac-protocol'),
    report: `${reports}/ac-protocol.json`,
    kind: 'vitest',
  },
);
// The packaged agent (one Windows executable) runs under Debian's wine64 in the rig agent's tests
// (test/packaged.test.ts skips, saying so, only when wine64 cannot be installed).
if (!(await ensureWine()))
  console.log('\nwine64 could not be installed: the packaged rig agent test will be skipped');
// The rig agent against a real Paddock server (its tests clone the server's template database).
await step(
  'rig agent tests (real server, fake sim)',
  vitest,
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/rig-agent.json`],
  {
    cwd: path.join(root, 'apps/rig-agent'),
    env: {
      ...process.env,
      TEST_DATABASE_URL: postgresReachable(machinePg) ? machinePg : '',
    },
    report: `${reports}/rig-agent.json`,
    kind: 'vitest',
  },
);
// The scale-out test puts Debian's HAProxy in front of two servers (it skips, saying so, only
// when HAProxy cannot be installed).
if (!(await ensureHaproxy()))
  console.log('\nHAProxy could not be installed: the scale-out test will be skipped');
await step(
  'server tests (embedded PostgreSQL)',
  vitest,
  [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reports}/server-embedded.json`,
  ],
  {
    cwd: path.join(root, 'apps/server'),
    env: { ...process.env, TEST_DATABASE_URL: '' },
    report: `${reports}/server-embedded.json`,
    kind: 'vitest',
  },
);
if (postgresReachable(machinePg)) {
  await step(
    `server tests (PostgreSQL at ${new URL(machinePg).host})`,
    vitest,
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/server-pg.json`],
    {
      cwd: path.join(root, 'apps/server'),
      // The scale-out test (~30 s, two servers and HAProxy) ran in the first pass already.
      env: { ...process.env, TEST_DATABASE_URL: machinePg, SKIP_SCALE_OUT: '1' },
      report: `${reports}/server-pg.json`,
      kind: 'vitest',
    },
  );
} else {
  console.log(
    `\n(no PostgreSQL answers at ${new URL(machinePg).host}: second server pass skipped)`,
  );
}
await step(
  'web tests',
  vitest,
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/web.json`],
  {
    cwd: path.join(root, 'apps/web'),
    report: `${reports}/web.json`,
    kind: 'vitest',
  },
);
await step('build web app', 'npm', ['run', 'build', '--silent']);
if (await ensureChromium()) {
  await step(
    'browser journeys (Playwright, Chromium)',
    path.join(root, 'node_modules/.bin/playwright'),
    ['test'],
    {
      cwd: path.join(root, 'apps/web'),
      env: {
        ...process.env,
        E2E_PORT: String(await freePort()),
        PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/e2e.json`,
      },
      report: `${reports}/e2e.json`,
      kind: 'playwright',
    },
  );
  // A display kept open through server restarts and network cuts (a few minutes).
  await step(
    'wall-screen soak (3 restarts, 2 network cuts)',
    path.join(root, 'node_modules/.bin/playwright'),
    ['test', '-c', 'playwright.soak.config.ts'],
    {
      cwd: path.join(root, 'apps/web'),
      env: {
        ...process.env,
        SOAK_PORT: String(await freePort()),
        SOAK_PROXY_PORT: String(await freePort()),
        PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/soak.json`,
      },
      report: `${reports}/soak.json`,
      kind: 'playwright',
    },
  );
} else {
  console.log('\nChromium could not be installed: browser journeys FAILED to run');
  failed += 1;
}

console.log('\nSummary');
for (const s of steps) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'} ${s.name} (${s.seconds}s)`);
for (const note of flakyNotes)
  console.log(`\nFlaky: ${plain(note).split('\n').slice(0, 25).join('\n    ')}`);
for (const { name, text } of firstFailures) {
  const lines = plain(text).split('\n').slice(0, 25).join('\n    ');
  console.log(`\nFirst failure in ${name}:\n    ${lines}`);
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && steps.every((s) => s.ok) ? 0 : 1);
