import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app';
import { bearer, createUser, type CreatedUser } from './factories';
import { createVenue } from './booking-factories';

let t: TestApp;
let admin: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { isStaff: true, isSuperuser: true });
  venue = await createVenue(t, { seats: 1 });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ url, headers: bearer(admin.token) });

describe('ids and integers', () => {
  it('are parsed strictly: 0x10, 1e0, " 1" and 01 are not ids', async () => {
    for (const id of ['0x10', '1e0', '%201', '01', '1.0', '-1', '0']) {
      const res = await get(`/api/locations/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json()).toHaveProperty('id');
    }
    expect((await get(`/api/locations/${venue.location.id}`)).statusCode).toBe(200);
  });

  it('beyond the column range are a 400 naming the field, reachable without login', async () => {
    for (const url of [
      '/api/locations/2147483648',
      '/api/calendars/9223372036854775808',
      '/api/calendars?location=2147483648',
      '/api/calendars?type__in=1,2147483648',
      '/api/pages?page=2147483648',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
    }
    const body = await t.app.inject({
      method: 'POST',
      url: '/api/reservations',
      headers: bearer(admin.token),
      payload: { calendar: 2 ** 31, slot: '2030-01-01T10:00' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toHaveProperty('calendar');
    expect((await get('/api/locations/2147483647')).statusCode).toBe(404);
  });
});

describe('a NUL character', () => {
  it('in any string is a 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/locations/${venue.location.id}`,
      headers: bearer(admin.token),
      payload: { name: 'Paddock\u0000', address: 'fine' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ name: ['Null characters are not allowed.'] });
    const query = await t.app.inject({ url: '/api/calendars?search=a%00b' });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toHaveProperty('search');
  });
});

describe('a body nested thousands deep', () => {
  it('is a 400, not a stack overflow in the NUL check', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/locations/${venue.location.id}`,
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      payload: `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    });
    expect(res.statusCode).toBe(400);
    const nested = await t.app.inject({
      method: 'PATCH',
      url: `/api/locations/${venue.location.id}`,
      headers: bearer(admin.token),
      payload: { name: 'ok', opening_hours: { 1: [{ open: '10:00', close: 'a\u0000' }] } },
    });
    expect(nested.json()).toEqual({
      'opening_hours.1.0.close': ['Null characters are not allowed.'],
    });
  });
});

describe('an empty PATCH or PUT', () => {
  it('answers the unchanged object', async () => {
    const before = (await get(`/api/locations/${venue.location.id}`)).json();
    for (const method of ['PATCH', 'PUT'] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/locations/${venue.location.id}`,
        headers: bearer(admin.token),
        payload: {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(before);
    }
  });
});
