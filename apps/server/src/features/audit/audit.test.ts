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

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  who: CreatedUser,
  payload?: object,
) => t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

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
    // A staff move is the customer's move (decision 0088): the trail keeps its money too.
    expect(move.after).toMatchObject({
      calendar: venue.seats[1].id,
      slot: `${day}T18:00`,
      price_difference_cents: 0,
      charged_cents: 0,
    });

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

  it('records special hours, a seat price, a new page and a walk-in, naming their targets', async () => {
    const manager = await createUser(t, {
      isStaff: true,
      firstName: 'Mo',
      lastName: 'Manager',
      permissions: [
        'locations.change_location',
        'calendars.change_calendar',
        'pages.change_page',
        'reservations.change_reservation',
        'user.change_user',
      ],
    });
    const date = futureDate(9);
    const hours = await call('PATCH', `/api/locations/${venue.location.id}`, manager, {
      special_hours: { [date]: [] },
    });
    expect(hours.statusCode, hours.body).toBe(200);
    const seat = venue.seats[0];
    const price = await call('PATCH', `/api/calendars/${seat.id}`, manager, { cost_cents: 3100 });
    expect(price.statusCode, price.body).toBe(200);
    const page = await call('POST', '/api/pages', manager, { name: 'Race Night Rules' });
    expect(page.statusCode, page.body).toBe(201);
    const walkIn = await call('POST', '/api/users/desk', manager, {
      first_name: 'Wes',
      contact_phone: '555 123 9876',
    });
    expect(walkIn.statusCode, walkIn.body).toBe(201);

    const trail = (await call('GET', `/api/audit?actor=${manager.id}`, auditor)).json();
    const byAction = Object.fromEntries(
      trail.results.map((e: { action: string }) => [e.action, e]),
    );
    expect(Object.keys(byAction).sort()).toEqual([
      'location.special_hours',
      'page.create',
      'seat.price',
      'user.create_customer',
    ]);
    expect(byAction['location.special_hours']).toMatchObject({
      target_type: 'location',
      target_name: venue.location.name,
      after: { special_hours: { [date]: [] } },
    });
    expect(byAction['seat.price']).toMatchObject({
      target_name: seat.name,
      before: { cost_cents: seat.costCents },
      after: { cost_cents: 3100 },
    });
    expect(byAction['page.create']).toMatchObject({
      target_name: 'Race Night Rules',
      after: { name: 'Race Night Rules' },
    });
    expect(byAction['user.create_customer']).toMatchObject({
      subject_name: 'Wes',
      subject_deleted: false,
    });
    // An unchanged PATCH is no act.
    await call('PATCH', `/api/calendars/${seat.id}`, manager, { cost_cents: 3100 });
    expect((await call('GET', `/api/audit?actor=${manager.id}`, auditor)).json().count).toBe(4);
  });

  it('names the seats an entry refers to, and a deleted customer without a name', async () => {
    const customer = await createUser(t, { firstName: 'Gone', lastName: 'Soon' });
    const booked = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: [{ calendar: venue.seats[1].id, slot: `${futureDate(5)}T12:00` }],
      payment: 'desk',
    });
    expect(booked.statusCode).toBe(201);
    const deleted = await call('DELETE', `/api/users/${customer.id}`, staff);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const [book] = (
      await call('GET', `/api/audit?user=${customer.id}&action=planner`, auditor)
    ).json().results;
    expect(book).toMatchObject({ subject_deleted: true, subject_name: null });
    expect(book.names[`calendar:${venue.seats[1].id}`]).toBe(venue.seats[1].name);
  });

  it('records rig keys made and revoked, on their seat', async () => {
    const rigs = await createUser(t, { isStaff: true, permissions: ['rigs.change_rig'] });
    const seat = venue.seats[1];
    const made = await call('POST', '/api/rig_keys', rigs, { calendar: seat.id, label: 'Left PC' });
    expect(made.statusCode, made.body).toBe(201);
    const revoked = await call('DELETE', `/api/rig_keys/${made.json().id}`, rigs);
    expect(revoked.statusCode).toBe(204);
    const trail = (await call('GET', `/api/audit?actor=${rigs.id}`, auditor)).json().results;
    expect(trail).toMatchObject([
      { action: 'rig_key.revoke', target_name: seat.name, before: { label: 'Left PC' } },
      { action: 'rig_key.create', target_name: seat.name, after: { label: 'Left PC' } },
    ]);
    expect(JSON.stringify(trail)).not.toContain(made.json().key);
  });
});
