import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createLocation } from '../../test/booking-factories';

let t: TestApp;
let owner: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { isStaff: true, permissions: ['locations.change_location'] });
});
afterAll(() => t.close());

const post = (url: string, payload: object, user: CreatedUser | null = owner) =>
  t.app.inject({ method: 'POST', url, payload, headers: user ? bearer(user.token) : {} });

describe('setting up a location', () => {
  it('creates a location with hours after midnight, closed dates and special hours', async () => {
    const body = {
      name: 'Paddock Harbour',
      address: '1 Pier Road',
      timezone: 'Europe/London',
      sales_tax_rate_percent: 20,
      booking_fee_cents: 150,
      booking_fees_threshold: 4,
      post_booking_url: '/pages/1',
      opening_hours: {
        '5': [
          { open: '10:00', close: '14:00' },
          { open: '18:00', close: '02:00' },
        ],
      },
      special_hours: { '2026-12-25': [], '2026-12-24': [{ open: '10:00', close: '12:00' }] },
    };
    const res = await post('/api/locations', body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ ...body, id: expect.any(Number) });
    const read = await t.app.inject({ method: 'GET', url: `/api/locations/${res.json().id}` });
    expect(read.json().opening_hours).toEqual(body.opening_hours);

    const bare = await post('/api/locations', { name: 'Bare', timezone: 'America/Denver' });
    expect(bare.statusCode).toBe(201);
    expect(bare.json()).toMatchObject({ booking_fee_cents: 0, opening_hours: {}, address: '' });
  });

  it('is for staff with locations.change_location only', async () => {
    const body = { name: 'Nope', timezone: 'America/Denver' };
    expect((await post('/api/locations', body, null)).statusCode).toBe(401);
    const customer = await createUser(t);
    expect((await post('/api/locations', body, customer)).statusCode).toBe(403);
    const seatsOnly = await createUser(t, {
      isStaff: true,
      permissions: ['calendars.change_calendar'],
    });
    expect((await post('/api/locations', body, seatsOnly)).statusCode).toBe(403);
    const preview = { date: '2026-12-01', timezone: 'UTC', opening_hours: {} };
    expect((await post('/api/locations/slot-preview', preview, customer)).statusCode).toBe(403);
  });

  it('names the field of every bad value, on create and on edit', async () => {
    const base = { name: 'Bad', timezone: 'America/Denver' };
    const cases: [Record<string, unknown>, string][] = [
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ timezone: 'PST8PDT-ish' }, 'timezone'],
      [{ sales_tax_rate_percent: -0.5 }, 'sales_tax_rate_percent'],
      [{ booking_fee_cents: -1 }, 'booking_fee_cents'],
      [{ post_booking_url: 'javascript:alert(1)' }, 'post_booking_url'],
      [{ post_booking_url: '//evil.example.com' }, 'post_booking_url'],
      [{ post_booking_url: 'ftp://example.com' }, 'post_booking_url'],
      [
        {
          opening_hours: {
            '1': [
              { open: '10:00', close: '14:00' },
              { open: '13:00', close: '18:00' },
            ],
          },
        },
        'opening_hours.1',
      ],
      // Friday's after-midnight tail runs into Saturday's morning.
      [
        {
          opening_hours: {
            '5': [{ open: '20:00', close: '03:00' }],
            '6': [{ open: '02:00', close: '05:00' }],
          },
        },
        'opening_hours.5',
      ],
      // Sunday runs into Monday.
      [
        {
          opening_hours: {
            '7': [{ open: '22:00', close: '01:00' }],
            '1': [{ open: '00:00', close: '04:00' }],
          },
        },
        'opening_hours.7',
      ],
      [
        {
          special_hours: {
            '2026-12-31': [
              { open: '18:00', close: '02:00' },
              { open: '23:00', close: '23:30' },
            ],
          },
        },
        'special_hours.2026-12-31',
      ],
    ];
    const loc = await createLocation(t);
    for (const [fields, field] of cases) {
      const created = await post('/api/locations', { ...base, ...fields });
      expect(created.statusCode, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(created.json()), JSON.stringify(fields)).toContain(field);
      const edited = await t.app.inject({
        method: 'PATCH',
        url: `/api/locations/${loc.id}`,
        payload: fields,
        headers: bearer(owner.token),
      });
      expect(edited.statusCode, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(edited.json()), JSON.stringify(fields)).toContain(field);
    }
    const missing = await post('/api/locations', { name: 'No zone' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('timezone');
  });

  it('accepts ranges that only touch, and a day running to midnight before a day from midnight', async () => {
    const res = await post('/api/locations', {
      name: 'Touching',
      timezone: 'America/Denver',
      opening_hours: {
        '1': [
          { open: '10:00', close: '14:00' },
          { open: '14:00', close: '00:00' },
        ],
        '2': [{ open: '00:00', close: '03:00' }],
        '5': [{ open: '20:00', close: '02:00' }],
        '6': [{ open: '02:00', close: '05:00' }],
      },
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('slot preview', () => {
  const hours = { '7': [{ open: '00:00', close: '00:00' }] };

  it('previews the slots of the date with the server’s own rules, DST days included', async () => {
    // 2026-11-01 is a Sunday and the day New York falls back: 50 half-hours, 48 keys.
    const fallBack = await post('/api/locations/slot-preview', {
      date: '2026-11-01',
      timezone: 'America/New_York',
      opening_hours: hours,
    });
    expect(fallBack.statusCode).toBe(200);
    expect(fallBack.json()).toMatchObject({ date: '2026-11-01', half_hours_in_day: 50 });
    const keys = fallBack.json().slots.map((s: { slot: string }) => s.slot);
    expect(keys).toHaveLength(48);
    expect(new Set(keys).size).toBe(48);
    expect(fallBack.json().slots[2]).toEqual({
      slot: '2026-11-01T01:00',
      time: '2026-11-01T01:00:00-04:00',
    });

    // 2026-03-08, a Sunday, springs forward: 02:00–03:00 does not exist.
    const spring = await post('/api/locations/slot-preview', {
      date: '2026-03-08',
      timezone: 'America/New_York',
      opening_hours: hours,
    });
    expect(spring.json().half_hours_in_day).toBe(46);
    const springKeys = spring.json().slots.map((s: { slot: string }) => s.slot);
    expect(springKeys).toHaveLength(46);
    expect(springKeys).not.toContain('2026-03-08T02:00');
  });

  it('shows a night running past midnight on the next date, and special hours over weekly ones', async () => {
    const body = {
      timezone: 'Europe/London',
      opening_hours: { '5': [{ open: '23:00', close: '01:00' }] },
      special_hours: { '2026-12-05': [{ open: '12:00', close: '13:00' }], '2026-12-11': [] },
    };
    const saturday = await post('/api/locations/slot-preview', { ...body, date: '2026-12-05' });
    expect(saturday.json().slots.map((s: { slot: string }) => s.slot)).toEqual([
      '2026-12-05T00:00',
      '2026-12-05T00:30',
      '2026-12-05T12:00',
      '2026-12-05T12:30',
    ]);
    const closedFriday = await post('/api/locations/slot-preview', { ...body, date: '2026-12-11' });
    expect(closedFriday.json().slots).toEqual([]);
    const badZone = await post('/api/locations/slot-preview', {
      ...body,
      date: '2026-12-11',
      timezone: 'Nowhere/Land',
    });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json()).toHaveProperty('timezone');
  });
});
