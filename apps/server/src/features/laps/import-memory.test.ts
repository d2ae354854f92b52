import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createUser, type CreatedUser } from '../../test/factories';
import { startServerProcess, type ServerProcess } from '../../test/server-process';
import { AC_RESULTS } from '../../test/fixtures';
import { laps } from '../../db/schema/laps';

/**
 * Issue 27: a 2 MB body to the import route ran the server out of heap (the NUL-character hook
 * walked the raw Buffer byte by byte, before the access guard), and so did a real 10 MB results
 * file. Run against the server in its own process under node-flags.json's heap limit, where an
 * out-of-memory is a dead process, not a slow test.
 */
const SECRET = 'test-secret-test-secret-test-secret-0123';

/** A real AC server race grown to 52 000 laps, written compactly as AC's JSON allows: ~9.9 MB. */
function bigResultsFile(): Buffer {
  const file = JSON.parse(
    fs.readFileSync(path.join(AC_RESULTS, 'server-race-monza.json'), 'utf8'),
  ) as { Laps: { Timestamp: number }[] };
  const sample = file.Laps;
  file.Laps = Array.from({ length: 52_000 }, (_, i) => ({
    ...sample[i % sample.length],
    Timestamp: sample[i % sample.length].Timestamp + i * 1000,
  }));
  return Buffer.from(JSON.stringify(file));
}

let t: TestApp;
let server: ServerProcess;
let staff: CreatedUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, { isStaff: true, permissions: ['laps.change_lap'] });
  server = await startServerProcess({ databaseUrl: t.deps.database.url, jwtSecret: SECRET });
});
// A test that killed the server must not take the next one with it.
beforeEach(async () => {
  if (!server.exit()) return;
  await server.stop();
  server = await startServerProcess({ databaseUrl: t.deps.database.url, jwtSecret: SECRET });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

const post = (body: Buffer, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/laps/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body,
  });
const alive = async () => (await fetch(`${server.url}/api/settings`)).status;

describe('large bodies to the results import, in a server with its real heap limit', () => {
  it('refuses an anonymous 2 MB body with a 401 and stays up', async () => {
    const res = await post(crypto.randomBytes(2 * 1024 * 1024));
    expect(res.status).toBe(401);
    expect(await alive()).toBe(200);
    expect(server.exit()).toBeNull();
  }, 60_000);

  it("answers staff's 2 MB of binary with a 400 on file and stays up", async () => {
    const res = await post(crypto.randomBytes(2 * 1024 * 1024), {
      authorization: `Bearer ${staff.token}`,
    });
    expect(res.status).toBe(400);
    expect(Object.keys((await res.json()) as object)).toEqual(['file']);
    expect(await alive()).toBe(200);
  }, 60_000);

  it('imports a 10 MB results file of 52 000 laps', async () => {
    const body = bigResultsFile();
    expect(body.length).toBeGreaterThan(9_500_000);
    const started = Date.now();
    const res = await post(body, { authorization: `Bearer ${staff.token}` });
    const seconds = (Date.now() - started) / 1000;
    const text = await res.text();
    expect(res.status, `${text.slice(0, 300)}\n${server.output()}`).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ laps_added: 52_000, laps_skipped: 0 });
    const [{ n }] = await t.db.select({ n: count() }).from(laps);
    expect(n).toBe(52_000);
    expect(await alive()).toBe(200);
    console.log(
      `import: ${(body.length / 1024 / 1024).toFixed(1)} MB, 52 000 laps in ${seconds.toFixed(1)} s, server peak RSS ${server.peakRssMb().toFixed(0)} MB`,
    );
  }, 240_000);
});
