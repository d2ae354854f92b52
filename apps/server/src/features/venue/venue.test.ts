import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser } from '../../test/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('OPTIONS /api/', () => {
  it('serves the venue configuration with its defaults', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.club_name).toBe('Apex Club');
    expect(body.club_enabled).toBe(true);
    expect(body.terms_text).toContain('{cancellation_window_hours} hours notice');
    expect(body.payment_provider).toBe('local');
  });

  it('lets staff change settings and shows them to everyone', async () => {
    const staff = await createUser(t, { isStaff: true, permissions: ['venue.change_settings'] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(staff.token),
      payload: { club_name: 'Pit Lane Club', club_enabled: false },
    });
    expect(res.statusCode).toBe(200);
    const config = (await t.app.inject({ method: 'OPTIONS', url: '/api' })).json();
    expect(config.club_name).toBe('Pit Lane Club');
    expect(config.club_enabled).toBe(false);
  });

  it('refuses settings changes from customers and bad values with the field named', async () => {
    const customer = await createUser(t);
    const forbidden = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(customer.token),
      payload: { club_name: 'Mine' },
    });
    expect(forbidden.statusCode).toBe(403);
    const staff = await createUser(t, { isStaff: true, permissions: ['venue.change_settings'] });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(staff.token),
      payload: { club_discount_percent: 'lots', nonsense: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(expect.arrayContaining(['club_discount_percent']));
  });

  it('answers an invalid token with token_not_valid', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/settings',
      headers: bearer('nope'),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'token_not_valid' });
  });
});
