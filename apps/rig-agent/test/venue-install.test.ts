// Putting the agent on a venue's PCs (issue 43, decision 0121), against a real Paddock: pairing
// stores the key for this account only, the health report reaches the rig map's read, and the
// self-update goes old → new and keeps the running version on a bad hash or while the sim runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createVenue } from '../../server/src/test/booking-factories';
import { readRigHealth } from '../../server/src/features/rigs/health.service';
import { keyFor, readStoredKey } from '../src/pairing';
import { HealthReporter, freeBytes } from '../src/health';
import { checkForUpdate, cleanUpAfterUpdate } from '../src/self-update';
import { RigHarness, until } from './harness';

const h = new RigHarness();
let ship = '';
let venue: Awaited<ReturnType<typeof createVenue>>;

beforeAll(async () => {
  await h.start({
    tmpPrefix: 'paddock-rig-install-',
    permissions: ['rigs.change_rig'],
    env: (tmp) => {
      ship = path.join(tmp, 'ship', 'paddock-rig.exe');
      return { RIG_AGENT_BUILD: ship };
    },
  });
  venue = await createVenue(h.t, { seats: 2 });
});
afterAll(h.stop);

/** The server ships `bytes` as `version`; `claim` is the sha256 its build.json states. */
function shipBuild(version: string, bytes: string, claim?: string) {
  fs.mkdirSync(path.dirname(ship), { recursive: true });
  fs.writeFileSync(ship, bytes);
  const sha256 = claim ?? crypto.createHash('sha256').update(bytes).digest('hex');
  fs.writeFileSync(
    path.join(path.dirname(ship), 'build.json'),
    JSON.stringify({ version, sha256, size: Buffer.byteLength(bytes) }),
  );
}

async function pairedKey(seat: number, dir: string) {
  const keyFile = path.join(dir, 'profile', 'key');
  const codes: string[] = [];
  const pairing = keyFor({ server: h.url, keyFile, pollMs: 50, show: (code) => codes.push(code) });
  await until(() => codes.length === 1, 10_000, 'the pairing code');
  const res = await h.api('POST', '/api/rig_keys/pair', { calendar: seat, code: codes[0] });
  expect(res.statusCode).toBe(201);
  return { key: await pairing, keyFile };
}

describe('a venue PC', () => {
  it('pairs once and keeps its key readable by its account only', async () => {
    const dir = fs.mkdtempSync(path.join(h.tmp, 'pc-'));
    const { key, keyFile } = await pairedKey(venue.seats[0].id, dir);
    expect(readStoredKey(keyFile)).toBe(key);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(keyFile)).mode & 0o777).toBe(0o700);
    // The next start uses the stored key: no code is shown.
    const shown: string[] = [];
    expect(await keyFor({ server: h.url, keyFile, show: (c) => shown.push(c) })).toBe(key);
    expect(shown).toEqual([]);
  });

  it('reports its health, and updates itself between sessions: old → new, a bad hash keeps the old one', async () => {
    const seat = venue.seats[1].id;
    const dir = fs.mkdtempSync(path.join(h.tmp, 'pc-'));
    const { key } = await pairedKey(seat, dir);
    const exe = path.join(dir, 'Paddock', 'paddock-rig.exe');
    fs.mkdirSync(path.dirname(exe));
    fs.writeFileSync(exe, 'build 1');
    let running = true;
    let version = '1';
    const restarts: string[] = [];
    const update = () =>
      checkForUpdate({
        server: h.url,
        key,
        version,
        exe,
        simRunning: () => running,
        restart: () => restarts.push(fs.readFileSync(exe, 'utf8')),
      });
    const health = () =>
      new HealthReporter({
        server: h.url,
        key,
        version,
        folder: path.join(dir, 'Documents', 'Assetto Corsa'),
        simRunning: () => running,
      }).report();

    await health();
    const [before] = await readRigHealth(h.t.db, [seat]);
    expect(before).toMatchObject({ calendar: seat, version: '1', sim_running: true });
    // The drive's free space (others write to it meanwhile: within 1 %).
    const free = (await freeBytes(dir))!;
    expect(free).toBeGreaterThan(0);
    expect(Math.abs(before.disk_free_bytes! - free) / free).toBeLessThan(0.01);

    expect(await update()).toBe('none'); // the server ships no build yet
    shipBuild('2', 'build 2');
    // Never while the sim runs.
    expect(await update()).toBe('busy');
    expect(fs.readFileSync(exe, 'utf8')).toBe('build 1');

    running = false;
    expect(await update()).toBe('updated');
    expect(restarts).toEqual(['build 2']);
    expect(fs.readFileSync(exe, 'utf8')).toBe('build 2');
    expect(fs.readFileSync(`${exe}.old`, 'utf8')).toBe('build 1');
    // The new one starts: the old file goes, and the rig map reads its version.
    cleanUpAfterUpdate(exe);
    expect(fs.existsSync(`${exe}.old`)).toBe(false);
    version = '2';
    await health();
    expect((await readRigHealth(h.t.db, [seat]))[0]).toMatchObject({
      version: '2',
      sim_running: false,
    });
    expect(await update()).toBe('current');

    // A build whose bytes are not what the server says: thrown away, version 2 keeps running.
    shipBuild('3', 'build 3, damaged on the way', 'f'.repeat(64));
    expect(await update()).toBe('bad-hash');
    expect(fs.readFileSync(exe, 'utf8')).toBe('build 2');
    expect(fs.readdirSync(path.dirname(exe))).toEqual(['paddock-rig.exe']);
    expect(restarts).toHaveLength(1);

    // Only a paired PC downloads it.
    const anonymous = await h.t.app.inject({ url: '/api/rigs/agent/download' });
    expect(anonymous.statusCode).toBe(401);
  });
});
