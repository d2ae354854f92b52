// The packaged agent (`npm run package:rig`: one Windows x64 executable, Node's single-executable
// applications) under Debian's wine64: it says its version, and it connects to a real Paddock
// and starts the fake sim (run by the Windows node.exe the executable was made from). Skips,
// saying so, only when wine64 is missing (scripts/test.mjs installs it with apt-get).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { createVenue } from '../../server/src/test/booking-factories';
import { cars, tracks } from '../../server/src/db/schema/laps';
// @ts-expect-error plain JavaScript build scripts (no types)
import { packageRig, windowsNode } from '../../../scripts/package-rig.mjs';
// @ts-expect-error plain JavaScript build scripts (no types)
import { WINE64, root } from '../../../scripts/lib.mjs';
import { FAKE_SIM, RigHarness, until } from './harness';

const haveWine = fs.existsSync(WINE64 as string);
if (!haveWine) console.log(`wine64 (${WINE64}) is missing: the packaged agent test is skipped`);

/** A Linux path as Windows programs under wine see it (drive Z: is /). */
const win = (p: string) => `Z:${p.replaceAll('/', '\\')}`;

const h = new RigHarness();
/** A wine prefix kept between runs (its first start takes a while). */
const prefix = path.join(root as string, 'node_modules/.cache/paddock-rig/wine-prefix');
const wineEnv = { ...process.env, WINEPREFIX: prefix, WINEDEBUG: '-all' };
let exe = '';
let version = '';
const running: ChildProcess[] = [];

/** Runs the executable under wine; its output goes to a file (wine gives Node no pipes). */
function wine(args: string[], out: string) {
  const fd = fs.openSync(out, 'w');
  const child = spawn(WINE64 as string, [exe, ...args], {
    env: wineEnv,
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  running.push(child);
  return new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
}

beforeAll(async () => {
  if (!haveWine) return;
  ({ exe, version } = await packageRig({ log: () => {} }));
  if (!fs.existsSync(path.join(prefix, 'system.reg'))) {
    fs.mkdirSync(prefix, { recursive: true });
    // Node refuses Windows versions before 8.1; wine's default answers 7.
    execFileSync(
      WINE64,
      ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'],
      {
        env: wineEnv,
        stdio: 'ignore',
      },
    );
  }
  await h.start({
    tmpPrefix: 'paddock-rig-packaged-',
    permissions: ['leaderboards.can_manage_race_events', 'rigs.change_rig'],
  });
}, 300_000);

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  // Every Windows process of the prefix (the fake sim's node.exe too).
  if (haveWine)
    spawn(path.join(path.dirname(WINE64 as string), 'wineserver'), ['-k'], { env: wineEnv });
  await h.stop();
});

describe.skipIf(!haveWine)('the packaged agent under wine64', () => {
  it('says its version', async () => {
    const out = path.join(h.tmp, 'version.txt');
    expect(await wine(['--version'], out)).toBe(0);
    expect(fs.readFileSync(out, 'utf8').trim()).toBe(version);
  });

  it('shows a pairing code, gets its key when staff type it, connects and starts the sim', async () => {
    const venue = await createVenue(h.t, { seats: 1 });
    const seat = venue.seats[0].id;
    const [{ id: track }] = await h.t.db
      .insert(tracks)
      .values({ sim: 'ac', key: 'ks_vallelunga', layout: '', name: 'Vallelunga' })
      .returning({ id: tracks.id });
    const [{ id: car }] = await h.t.db
      .insert(cars)
      .values({ sim: 'ac', key: 'ks_abarth500', name: 'Abarth 500' })
      .returning({ id: cars.id });
    const eventId = (await h.api('GET', `/api/calendars/${seat}`)).json().event as number;
    const edited = await h.api('PATCH', `/api/races/events/${eventId}`, {
      track,
      cars: [car],
      sessions: [{ type: 'PRACTICE', duration: 10 }],
      entries: [{ calendar: seat, car }],
    });
    expect(edited.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(h.tmp, 'pc-'));
    const cfg = path.join(dir, 'cfg');
    const simLog = path.join(dir, 'fake-sim.jsonl');
    const log = path.join(dir, 'agent.log');
    void wine(
      [
        '--server',
        h.url,
        '--key-file',
        win(path.join(dir, 'profile', 'rig-key.txt')),
        '--data-dir',
        win(path.join(dir, 'data')),
        '--ac-cfg-dir',
        win(cfg),
        '--laps-file',
        win(path.join(dir, 'laps.jsonl')),
        '--launch',
        win(windowsNode() as string),
        '--launch-arg',
        win(FAKE_SIM),
        '--launch-arg',
        win(cfg),
        '--launch-arg',
        win(simLog),
      ],
      log,
    );
    // Without a key it shows a pairing code; staff type it on the seat.
    let code = '';
    await until(
      () => {
        code =
          /type ([A-Z2-9]{3}-[A-Z2-9]{3}) on its seat/.exec(fs.readFileSync(log, 'utf8'))?.[1] ??
          '';
        return code !== '';
      },
      90_000,
      'the pairing code',
    );
    const paired = await h.api('POST', '/api/rig_keys/pair', { calendar: seat, code });
    expect(paired.statusCode).toBe(201);
    const connected = async () =>
      (
        await h.t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from rig_connections where calendar_id = ${seat}`,
        )
      ).rows[0].n === 1;
    await until(connected, 90_000, 'the packaged agent to connect').catch((e: Error) => {
      throw new Error(`${e.message}; its log:\n${fs.readFileSync(log, 'utf8')}`);
    });
    await h.signal(eventId, { signal: 'SESSION_START' });
    await until(() => fs.existsSync(simLog), 90_000, 'the fake sim to start under wine');
    expect(fs.readFileSync(path.join(cfg, 'race.ini'), 'utf8')).toContain('TRACK=ks_vallelunga');
    expect(fs.readFileSync(path.join(dir, 'profile', 'rig-key.txt'), 'utf8')).toMatch(/^rig_/);
  }, 240_000);
});
