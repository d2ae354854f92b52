import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { bearer } from '../test/factories';
import { calendarTypes, calendars, locations } from '../db/schema/venue';
import { demoLogins, seedDemoVenue } from './demo';
import { PERMISSIONS } from '@paddock/contract/accounts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo seed', () => {
  it('seeds an empty database once, with working logins', async () => {
    const [first, second] = await Promise.all([seedDemoVenue(t.db), seedDemoVenue(t.db)]);
    const result = first ?? second;
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await seedDemoVenue(t.db)).toBeNull();

    const locs = await t.db.select().from(locations);
    expect(locs.map((l) => [l.name, l.timezone, l.currency])).toEqual([
      ['Paddock Downtown', 'America/Los_Angeles', 'USD'],
      ['Paddock Brighton', 'Europe/London', 'GBP'],
    ]);
    expect(locs[0].openingHours['6']).toEqual([{ open: '10:00', close: '01:00' }]);
    expect(await t.db.select().from(calendars)).toHaveLength(12);
    expect((await t.db.select().from(calendarTypes)).map((c) => c.isVr)).toEqual([false, true]);

    const pages = (await t.app.inject({ method: 'GET', url: '/api/pages' })).json();
    expect(pages.results.map((p: { menu_name: string }) => p.menu_name)).toEqual(['About', '']);

    const roles = new Map(result!.logins.map((l) => [l.username, l]));
    expect([...roles.keys()].sort()).toEqual([
      'admin@paddock.local',
      'alice@paddock.local',
      'bob@paddock.local',
      'staff@paddock.local',
    ]);
    const login = async (username: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: { username, password: roles.get(username)!.password },
      });
      expect(res.statusCode).toBe(200);
      return res.json() as { access: string; user: Record<string, unknown> };
    };
    const staff = await login('staff@paddock.local');
    const perms = await t.app.inject({
      method: 'GET',
      url: '/api/auth/permissions',
      headers: bearer(staff.access),
    });
    expect(perms.json().permissions).toHaveLength(PERMISSIONS.length);
    // Race control: one party of three cockpits at Downtown, on its own event, every seat its own.
    const partiesRes = await t.app.inject({
      method: 'GET',
      url: `/api/races/parties?location=${locs[0].id}`,
      headers: bearer(staff.access),
    });
    expect(partiesRes.statusCode).toBe(200);
    const [party] = partiesRes.json();
    expect(party.members).toHaveLength(3);
    expect(party.event.entries.every((e: { car: number | null }) => e.car !== null)).toBe(true);
    const seats = (
      await t.app.inject({ method: 'GET', url: '/api/calendars?page_size=100' })
    ).json();
    expect(seats.results.every((c: { event: number | null }) => c.event !== null)).toBe(true);
    expect((await login('admin@paddock.local')).user.is_superuser).toBe(true);
    const alice = await login('alice@paddock.local');
    expect(alice.user).toMatchObject({ is_onboarded: true, is_staff: false, flag_code: 'us' });
    expect((await login('bob@paddock.local')).user.flag_url).toBe('/flags/4x3/gb.svg');
  });
});

describe('demo seed on a real database', () => {
  it('makes random passwords that work, and never the well-known ones', async () => {
    const other = await createTestApp();
    try {
      const result = await seedDemoVenue(other.db, { randomPasswords: true });
      const admin = result!.logins.find((l) => l.username === 'admin@paddock.local')!;
      expect(admin.password).not.toBe('paddock-admin');
      expect(admin.password.length).toBeGreaterThanOrEqual(16);
      const login = (password: string) =>
        other.app.inject({
          method: 'POST',
          url: '/api/auth/token',
          payload: { username: admin.username, password },
        });
      expect((await login(admin.password)).statusCode).toBe(200);
      expect((await login('paddock-admin')).statusCode).toBe(401);
      expect(await demoLogins(other.db)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
