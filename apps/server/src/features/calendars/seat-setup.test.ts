import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createLocation, createVenue, futureSlot } from '../../test/booking-factories';

let t: TestApp;
let staff: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, { isStaff: true, permissions: ['calendars.change_calendar'] });
});
afterAll(() => t.close());

const call = (
  method: 'POST' | 'PATCH' | 'PUT' | 'GET',
  url: string,
  payload?: object,
  user: CreatedUser | null = staff,
) =>
  t.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: user ? bearer(user.token) : {},
  });

describe('seat types', () => {
  it('creates and edits a seat type, listed for everyone', async () => {
    const created = await call('POST', '/api/caltypes', {
      name: 'VR Cockpit',
      image: 'https://example.com/vr.jpg',
      description: 'Motion rig with a headset',
      is_vr: true,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'VR Cockpit', is_vr: true });
    const edited = await call('PATCH', `/api/caltypes/${created.json().id}`, { is_vr: false });
    expect(edited.json()).toMatchObject({ name: 'VR Cockpit', is_vr: false });
    const list = await call('GET', '/api/caltypes?page_size=100', undefined, null);
    expect(list.json().results).toContainEqual(edited.json());
    expect((await call('PATCH', '/api/caltypes/999999', { name: 'x' })).statusCode).toBe(404);
  });

  it('refuses unsafe images and people without calendars.change_calendar', async () => {
    const bad = await call('POST', '/api/caltypes', { name: 'X', image: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('image');
    const other = await createUser(t, {
      isStaff: true,
      permissions: ['locations.change_location'],
    });
    expect((await call('POST', '/api/caltypes', { name: 'X' }, other)).statusCode).toBe(403);
    expect((await call('POST', '/api/caltypes', { name: 'X' }, null)).statusCode).toBe(401);
  });
});

describe('seats', () => {
  it('adds seats in order, edits them, and lists inactive ones for staff only', async () => {
    const { location, type } = await createVenue(t, { seats: 0 });
    const add = (name: string) =>
      call('POST', '/api/calendars', {
        name,
        type: type.id,
        location: location.id,
        cost_cents: 4500,
      });
    const a = await add('Rig A');
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({
      name: 'Rig A',
      active: true,
      sort_order: 0,
      cost_cents: 4500,
    });
    const b = await add('Rig B');
    expect(b.json().sort_order).toBe(1);

    const off = await call('PATCH', `/api/calendars/${a.json().id}`, {
      active: false,
      cost_cents: 5000,
      image: '/images/rig-a.jpg',
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({
      active: false,
      cost_cents: 5000,
      image: '/images/rig-a.jpg',
    });

    const publicList = await call('GET', `/api/calendars?location=${location.id}`, undefined, null);
    expect(publicList.json().results.map((s: { name: string }) => s.name)).toEqual(['Rig B']);
    const all = await call('GET', `/api/locations/${location.id}/seats`);
    expect(all.json().map((s: { name: string }) => s.name)).toEqual(['Rig A', 'Rig B']);
    const customer = await createUser(t);
    expect(
      (await call('GET', `/api/locations/${location.id}/seats`, undefined, customer)).statusCode,
    ).toBe(403);
    expect((await call('GET', '/api/locations/999999/seats')).statusCode).toBe(404);
  });

  it('names the field of every bad value', async () => {
    const { location, type, seats } = await createVenue(t, { seats: 1 });
    const good = { name: 'Rig', type: type.id, location: location.id, cost_cents: 100 };
    const cases: [Record<string, unknown>, string][] = [
      [{ cost_cents: -1 }, 'cost_cents'],
      [{ cost_cents: 1.5 }, 'cost_cents'],
      [{ image: 'data:text/html,hi' }, 'image'],
      [{ type: 999999 }, 'type'],
      [{ location: 999999 }, 'location'],
      [{ name: '' }, 'name'],
      // A SteamID64: 17 digits from 7656119 (decision 0118).
      [{ steam_id: '7656119797107030' }, 'steam_id'],
      [{ steam_id: '765611979710703021' }, 'steam_id'],
      [{ steam_id: '12345678901234567' }, 'steam_id'],
      [{ steam_id: 'STEAM_0:1:12345' }, 'steam_id'],
      [{ steam_id: 17 }, 'steam_id'],
    ];
    for (const [fields, field] of cases) {
      const created = await call('POST', '/api/calendars', { ...good, ...fields });
      expect(created.statusCode, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(created.json()), JSON.stringify(fields)).toContain(field);
      const edited = await call('PATCH', `/api/calendars/${seats[0].id}`, fields);
      expect(edited.statusCode, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(edited.json()), JSON.stringify(fields)).toContain(field);
    }
  });

  it('keeps a seat’s Steam account (SteamID64) for staff, and clears it with an empty value', async () => {
    const { location, type } = await createVenue(t, { seats: 0 });
    const made = await call('POST', '/api/calendars', {
      name: 'Rig S',
      type: type.id,
      location: location.id,
      cost_cents: 100,
      steam_id: ' 76561197971070302 ',
    });
    expect(made.statusCode).toBe(201);
    expect(made.json().steam_id).toBe('76561197971070302');
    const id = made.json().id as number;
    const changed = await call('PATCH', `/api/calendars/${id}`, { steam_id: '76561198000000001' });
    expect(changed.json().steam_id).toBe('76561198000000001');
    const listed = await call('GET', `/api/locations/${location.id}/seats`);
    expect(listed.json()[0].steam_id).toBe('76561198000000001');
    // The public seat does not carry it.
    const publicSeat = await call('GET', `/api/calendars/${id}`, undefined, null);
    expect(publicSeat.json()).not.toHaveProperty('steam_id');
    expect((await call('PATCH', `/api/calendars/${id}`, { steam_id: '' })).json().steam_id).toBe(
      null,
    );
    await call('PATCH', `/api/calendars/${id}`, { steam_id: '76561198000000001' });
    expect((await call('PATCH', `/api/calendars/${id}`, { steam_id: null })).json().steam_id).toBe(
      null,
    );
  });

  it('refuses to move a seat with future bookings to another location, and moves it once they are gone', async () => {
    const { seats } = await createVenue(t, { seats: 1 });
    const elsewhere = await createLocation(t, { name: 'Elsewhere' });
    const customer = await createUser(t);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/reservations',
      headers: bearer(customer.token),
      payload: { calendar: seats[0].id, slot: futureSlot('18:00', 3) },
    });
    expect(booked.statusCode).toBe(201);

    const move = () => call('PATCH', `/api/calendars/${seats[0].id}`, { location: elsewhere.id });
    const refused = await move();
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      location: [
        'This seat has future bookings. Cancel or move them before moving the seat to another location.',
      ],
    });
    // Other edits of the same seat still go through.
    const renamed = await call('PATCH', `/api/calendars/${seats[0].id}`, { name: 'Renamed' });
    expect(renamed.statusCode).toBe(200);

    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/reservations/${booked.json().id}`,
      headers: bearer(customer.token),
    });
    expect(cancelled.statusCode).toBeLessThan(300);
    const moved = await move();
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ location: elsewhere.id, name: 'Renamed' });
  });
});
