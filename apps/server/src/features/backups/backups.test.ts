import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@paddock/contract/venue';
import { PERMISSIONS } from '@paddock/contract/accounts';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { listBackups, nightlyDueAt, nightlyPass } from './backups.service';

let t: TestApp;
let keeper: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  keeper = await createUser(t, { isStaff: true, isSuperuser: true });
});
afterAll(() => t.close());

const LA = 'America/Los_Angeles';
const settings = { ...DEFAULT_SETTINGS, backup_time: '03:30', backup_keep: 3 };

describe('the nightly backup', () => {
  it('is due at the venue-local time, taken once a night, and keeps the newest N', async () => {
    // 03:30 in Los Angeles on 26 November is 11:30 UTC.
    expect(nightlyDueAt(new Date('2026-11-26T20:00:00Z'), settings, LA).toISOString()).toBe(
      '2026-11-26T11:30:00.000Z',
    );
    const runner = t.app.backups;
    const manual = await runner.run('manual', new Date('2026-11-01T12:00:00Z'));
    expect(await nightlyPass(runner, settings, LA, new Date('2026-11-20T11:29:00Z'))).toBeNull();
    const taken: string[] = [];
    for (let day = 20; day <= 25; day += 1) {
      const night = await nightlyPass(runner, settings, LA, new Date(`2026-11-${day}T11:31:00Z`));
      expect(night?.kind).toBe('nightly');
      taken.push(night!.name);
      // Later the same day: already taken.
      expect(await nightlyPass(runner, settings, LA, new Date(`2026-11-${day}T23:00:00Z`))).toBe(
        null,
      );
    }
    const left = await listBackups(runner.dir);
    expect(left.filter((b) => b.kind === 'nightly').map((b) => b.name)).toEqual(
      taken.slice(-3).reverse(),
    );
    // Manual backups are the operator's to delete.
    expect(left.map((b) => b.name)).toContain(manual.name);
  });
});

describe('the back office', () => {
  it('lists, starts and downloads backups for a superuser', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/backups',
      headers: bearer(keeper.token),
    });
    expect(started.statusCode).toBe(201);
    const entry = started.json();
    expect(entry).toMatchObject({ kind: 'manual', name: expect.stringMatching(/-manual\./) });

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/backups',
      headers: bearer(keeper.token),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().results[0]).toEqual(entry);
    expect(list.json().schedule).toEqual({
      nightly: true,
      time: '03:30',
      keep: 14,
      timezone: expect.any(String),
    });

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/backups/${entry.name}`,
      headers: bearer(keeper.token),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${entry.name}"`);
    expect(download.rawPayload).toEqual(fs.readFileSync(path.join(t.app.backups.dir, entry.name)));
    const header = JSON.parse(zlib.gunzipSync(download.rawPayload).toString('utf8').split('\n')[0]);
    expect(header.format).toBe('paddock-backup');

    // Who took a copy of the database is on the audit trail.
    const { rows } = await t.deps.database.pool.query(
      `select action, actor_id, after->>'name' as name from audit_events
        where action like 'backups.%' order by id`,
    );
    expect(rows).toEqual([
      { action: 'backups.take', actor_id: keeper.id, name: entry.name },
      { action: 'backups.download', actor_id: keeper.id, name: entry.name },
    ]);
  });

  it('refuses every other staff member, whatever they hold, and names outside the backups', async () => {
    // Staff holding every permission there is still cannot take the database home (issue 40).
    const other = await createUser(t, { isStaff: true, permissions: [...PERMISSIONS] });
    for (const [method, url] of [
      ['GET', '/api/backups'],
      ['POST', '/api/backups'],
      ['GET', '/api/backups/paddock-20260101T000000Z-manual.backup.gz'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(other.token) });
      expect(res.statusCode, url).toBe(403);
    }
    for (const name of ['..%2F..%2Fjwt-secret', 'paddock-20260101T000000Z-manual.backup.gz.part']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/backups/${name}`,
        headers: bearer(keeper.token),
      });
      expect(res.statusCode, name).toBe(400);
    }
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/backups/paddock-20260101T000000Z-manual.backup.gz',
      headers: bearer(keeper.token),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('takes the backup time and how many to keep as venue settings', async () => {
    const admin = await createUser(t, { isStaff: true, permissions: ['venue.change_settings'] });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(admin.token),
      payload: { backup_time: '25:00', backup_keep: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['backup_keep', 'backup_time']);
    const good = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(admin.token),
      payload: { backup_time: '04:15', backup_keep: 7 },
    });
    expect(good.statusCode).toBe(200);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/backups',
      headers: bearer(keeper.token),
    });
    expect(list.json().schedule).toMatchObject({ time: '04:15', keep: 7 });
  });
});
