// Pairing a PC with a seat and the agents' health (issue 43, decision 0121), on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { rigPairings } from '../../db/schema/rigs';
import { auditEvents } from '../../db/schema/audit';

let t: TestApp;
let staff: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, { isStaff: true, permissions: ['rigs.change_rig'] });
  venue = await createVenue(t, { seats: 2 });
});
afterAll(() => t.close());

const asStaff = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(staff.token), ...(payload ? { payload } : {}) });
const asPc = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

describe('pairing a PC with a seat', () => {
  it('shows a code, staff type it on the seat, the PC gets its key once; pairing again replaces the PC', async () => {
    const seat = venue.seats[0].id;
    const started = await asPc('/api/rig_pairings', { hostname: 'SIM-01' });
    expect(started.statusCode).toBe(201);
    const { code, secret } = started.json();
    expect(code).toMatch(/^[A-Z2-9]{3}-[A-Z2-9]{3}$/);
    expect((await asPc('/api/rig_pairings/key', { secret })).json()).toMatchObject({
      state: 'waiting',
    });
    const waiting = (await asStaff('GET', '/api/rig_pairings')).json();
    expect(waiting).toContainEqual(expect.objectContaining({ code, hostname: 'SIM-01' }));

    // Typed as staff would: lower case, without the dash.
    const paired = await asStaff('POST', '/api/rig_keys/pair', {
      calendar: seat,
      code: code.replace('-', '').toLowerCase(),
    });
    expect(paired.statusCode).toBe(201);
    expect(paired.json()).toMatchObject({ calendar: seat, label: 'SIM-01', revoked: false });
    expect(paired.json().key).toBeUndefined();

    const got = await asPc('/api/rig_pairings/key', { secret });
    expect(got.json()).toMatchObject({ state: 'paired', calendar: seat });
    const key = got.json().key as string;
    const me = await t.app.inject({
      url: '/api/rig_keys/me',
      headers: { authorization: `Rig ${key}` },
    });
    expect(me.json()).toMatchObject({ calendar: seat, label: 'SIM-01' });
    // Once: the key is not kept, and a second ask finds nothing.
    expect((await asPc('/api/rig_pairings/key', { secret })).statusCode).toBe(404);
    expect(
      await t.db
        .select()
        .from(rigPairings)
        .where(eq(rigPairings.code, code.replace('-', ''))),
    ).toEqual([]);

    // The same code cannot be paired twice.
    const again = await asStaff('POST', '/api/rig_keys/pair', { calendar: seat, code });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBeDefined();

    // A replaced PC: its new code on the same seat, one step; the old PC's key stops working.
    const second = (await asPc('/api/rig_pairings', { hostname: 'SIM-01-NEW' })).json();
    expect(
      (await asStaff('POST', '/api/rig_keys/pair', { calendar: seat, code: second.code }))
        .statusCode,
    ).toBe(201);
    const newKey = (await asPc('/api/rig_pairings/key', { secret: second.secret })).json().key;
    const oldMe = await t.app.inject({
      url: '/api/rig_keys/me',
      headers: { authorization: `Rig ${key}` },
    });
    expect(oldMe.statusCode).toBe(401);
    const newMe = await t.app.inject({
      url: '/api/rig_keys/me',
      headers: { authorization: `Rig ${newKey}` },
    });
    expect(newMe.statusCode).toBe(200);
    const audit = await t.db
      .select({ action: auditEvents.action, before: auditEvents.before })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'rig_key.pair'));
    expect(audit).toHaveLength(2);
    expect(audit[1].before).toEqual({ keys: ['SIM-01'] });

    // Revoking still works on a paired key.
    const keys = (await asStaff('GET', '/api/rig_keys')).json() as Array<{
      id: number;
      label: string;
      revoked: boolean;
    }>;
    const live = keys.find((k) => k.label === 'SIM-01-NEW' && !k.revoked)!;
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/rig_keys/${live.id}`,
          headers: bearer(staff.token),
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (await t.app.inject({ url: '/api/rig_keys/me', headers: { authorization: `Rig ${newKey}` } }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses a wrong or expired code in words, naming the field', async () => {
    const bad = await asStaff('POST', '/api/rig_keys/pair', {
      calendar: venue.seats[1].id,
      code: 'OO0-11I',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code[0]).toMatch(/six letters and digits/);
    const { code, secret } = (await asPc('/api/rig_pairings', {})).json();
    await t.db
      .update(rigPairings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(rigPairings.code, code.replace('-', '')));
    const late = await asStaff('POST', '/api/rig_keys/pair', { calendar: venue.seats[1].id, code });
    expect(late.statusCode).toBe(400);
    expect(late.json().code[0]).toContain(`No rig shows the code ${code} now`);
    expect((await asPc('/api/rig_pairings/key', { secret })).statusCode).toBe(404);
  });

  it('limits how many codes one address asks for', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/rig_pairings',
            payload: {},
            remoteAddress: '203.0.113.9',
          })
        ).statusCode,
      );
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("a rig agent's health", () => {
  it('is stored per seat with its last-seen time, for staff and the rig map', async () => {
    const seat = venue.seats[1].id;
    const made = await asStaff('POST', '/api/rig_keys', { calendar: seat, label: 'SIM-02' });
    const rig = { authorization: `Rig ${made.json().key}` };
    const report = { version: '0.1.0+abc', sim_running: true, disk_free_bytes: 52_000_000_000 };
    expect((await asPc('/api/rigs/health', report, rig)).statusCode).toBe(204);
    expect(
      (await asPc('/api/rigs/health', { ...report, sim_running: false }, rig)).statusCode,
    ).toBe(204);
    const health = (await asStaff('GET', '/api/rigs/health')).json();
    expect(health).toContainEqual(
      expect.objectContaining({
        calendar: seat,
        version: '0.1.0+abc',
        sim_running: false,
        disk_free_bytes: 52_000_000_000,
      }),
    );
    expect(
      Date.now() -
        Date.parse(health.find((h: { calendar: number }) => h.calendar === seat).last_seen),
    ).toBeLessThan(60_000);
    // Without a key, nothing is stored.
    expect((await asPc('/api/rigs/health', report)).statusCode).toBe(401);
    const bad = await asPc('/api/rigs/health', { ...report, disk_free_bytes: -1 }, rig);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().disk_free_bytes).toBeDefined();
  });
});
