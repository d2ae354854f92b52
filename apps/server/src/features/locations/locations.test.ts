import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser } from '../../test/factories';
import { createLocation } from '../../test/booking-factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('locations', () => {
  it('answers 404 for nearest when there are no locations', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/locations/nearest' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('lists locations with their booking fields', async () => {
    const a = await createLocation(t, {
      name: 'Downtown',
      salesTaxRatePercent: '8.875',
      bookingFeeCents: 150,
      bookingFeesThreshold: 4,
      postBookingUrl: 'https://example.com/thanks',
    });
    await createLocation(t, { name: 'Harbour', timezone: 'Europe/London' });
    const res = await t.app.inject({ method: 'GET', url: '/api/locations' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 2, page_count: 1, page_size: 25 });
    expect(body.results[0]).toEqual({
      id: a.id,
      name: 'Downtown',
      address: '',
      timezone: 'America/Los_Angeles',
      currency: 'USD',
      sales_tax_rate_percent: 8.875,
      booking_fee_cents: 150,
      booking_fees_threshold: 4,
      post_booking_url: 'https://example.com/thanks',
      cancellation_window_hours: null,
      late_cancellation_keep_percent: null,
      opening_hours: expect.any(Object),
      special_hours: {},
    });
    const one = await t.app.inject({ method: 'GET', url: `/api/locations/${a.id}` });
    expect(one.json().name).toBe('Downtown');
    expect((await t.app.inject({ method: 'GET', url: '/api/locations/999999' })).statusCode).toBe(
      404,
    );
  });

  it('gives the first location to strangers and their own to users who set one', async () => {
    const list = (await t.app.inject({ method: 'GET', url: '/api/locations' })).json().results;
    const anon = await t.app.inject({ method: 'GET', url: '/api/locations/nearest' });
    expect(anon.statusCode).toBe(200);
    expect(anon.json().id).toBe(list[0].id);

    const customer = await createUser(t);
    const noPref = await t.app.inject({
      method: 'GET',
      url: '/api/locations/nearest',
      headers: bearer(customer.token),
    });
    expect(noPref.json().id).toBe(list[0].id);

    await t.db.update(users).set({ locationId: list[1].id }).where(eq(users.id, customer.id));
    const own = await t.app.inject({
      method: 'GET',
      url: '/api/locations/nearest',
      headers: bearer(customer.token),
    });
    expect(own.json().id).toBe(list[1].id);
  });

  it('lets staff edit a location and refuses customers and strangers', async () => {
    const loc = await createLocation(t);
    const staff = await createUser(t, {
      isStaff: true,
      permissions: ['locations.change_location'],
    });
    const customer = await createUser(t);
    const patch = {
      sales_tax_rate_percent: 7.25,
      booking_fee_cents: 200,
      opening_hours: { '1': [{ open: '18:00', close: '02:00' }] },
      special_hours: { '2026-12-25': [] },
    };
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/api/locations/${loc.id}`, payload: patch }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/api/locations/${loc.id}`,
          payload: patch,
          headers: bearer(customer.token),
        })
      ).statusCode,
    ).toBe(403);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/locations/${loc.id}`,
      payload: patch,
      headers: bearer(staff.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      sales_tax_rate_percent: 7.25,
      booking_fee_cents: 200,
      opening_hours: patch.opening_hours,
      special_hours: patch.special_hours,
    });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/locations/${loc.id}`,
      payload: { name: 'Renamed' },
      headers: bearer(staff.token),
    });
    expect(put.json().name).toBe('Renamed');
  });

  it('names the field of every bad edit', async () => {
    const loc = await createLocation(t);
    const staff = await createUser(t, {
      isStaff: true,
      permissions: ['locations.change_location'],
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ sales_tax_rate_percent: -1 }, 'sales_tax_rate_percent'],
      [{ sales_tax_rate_percent: 'ten' }, 'sales_tax_rate_percent'],
      [{ booking_fee_cents: 1.5 }, 'booking_fee_cents'],
      [{ booking_fees_threshold: -2 }, 'booking_fees_threshold'],
      [{ opening_hours: { '8': [] } }, 'opening_hours'],
      [{ opening_hours: { '1': [{ open: '25:00', close: '02:00' }] } }, 'opening_hours.1.0.open'],
      [{ special_hours: { 'next friday': [] } }, 'special_hours'],
      [{ name: '' }, 'name'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/locations/${loc.id}`,
        payload,
        headers: bearer(staff.token),
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json()).join(), JSON.stringify(payload)).toContain(field);
    }
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/api/locations/abc',
      payload: {},
      headers: bearer(staff.token),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('id');
  });
});
