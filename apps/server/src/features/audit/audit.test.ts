import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let auditor: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2 });
  staff = await createUser(t, {
    isStaff: true,
    firstName: 'Sam',
    lastName: 'Desk',
    permissions: ['reservations.change_reservation', 'user.change_user', 'venue.change_settings'],
  });
  auditor = await createUser(t, { isStaff: true, permissions: ['audit.view_event'] });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, who: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

describe('the audit trail', () => {
  it('records staff actions with who, what, before and after, per customer and by area', async () => {
    const customer = await createUser(t, { firstName: 'Cara', lastName: 'Kerb' });
    const day = futureDate(4);
    const booked = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: [{ calendar: venue.seats[0].id, slot: `${day}T18:00` }],
      payment: 'desk',
    });
    expect(booked.statusCode).toBe(201);
    const id = booked.json().entries[0].id;
    await call('POST', '/api/planner/move', staff, {
      reservation: id,
      calendar: venue.seats[1].id,
      slot: `${day}T18:00`,
    });
    await call('PATCH', `/api/users/${customer.id}`, staff, { first_name: 'Carla' });
    await call('POST', `/api/users/${customer.id}/clear_outstanding`, staff);
    await call('PATCH', '/api/settings', staff, { company_name: 'Audit Arena' });

    const trail = await call('GET', `/api/audit?user=${customer.id}`, auditor);
    expect(trail.statusCode).toBe(200);
    const actions = trail.json().results.map((e: { action: string }) => e.action);
    expect(actions).toEqual([
      'user.clear_outstanding',
      'user.update',
      'planner.move',
      'planner.book',
    ]);
    const update = trail.json().results[1];
    expect(update).toMatchObject({
      actor: staff.id,
      actor_name: 'Sam Desk',
      subject_user: customer.id,
      subject_name: 'Carla Kerb',
      before: { firstName: 'Cara' },
      after: { firstName: 'Carla' },
    });
    const move = trail.json().results[2];
    expect(move.before).toEqual({ calendar: venue.seats[0].id, slot: `${day}T18:00` });
    expect(move.after).toEqual({ calendar: venue.seats[1].id, slot: `${day}T18:00` });

    const settings = await call('GET', '/api/audit?action=settings', auditor);
    expect(settings.json().results[0]).toMatchObject({
      action: 'settings.update',
      after: { company_name: 'Audit Arena' },
    });
  });

  it('keeps nothing of a refused action, and only auditors read it', async () => {
    const before = (await call('GET', '/api/audit', auditor)).json().count;
    const refused = await call('POST', '/api/planner/delete', staff, { reservations: [999999] });
    expect(refused.statusCode).toBe(400);
    expect((await call('GET', '/api/audit', auditor)).json().count).toBe(before);
    expect((await call('GET', '/api/audit', staff)).statusCode).toBe(403);
    const bad = await call('GET', '/api/audit?action=DROP%20TABLE', auditor);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('action');
  });
});
