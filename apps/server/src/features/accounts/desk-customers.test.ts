import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import {
  EMAIL_OR_PHONE_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  PHONE_TAKEN_MESSAGE,
} from '@paddock/contract/desk-customers';
import { outboxMessages } from '../../db/schema/content';
import { auditEvents } from '../../db/schema/audit';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';

let t: TestApp;
let desk: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  desk = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
});
afterAll(() => t.close());

const create = (payload: object, user: CreatedUser = desk) =>
  t.app.inject({ method: 'POST', url: '/api/users/desk', headers: bearer(user.token), payload });

async function lastAudit(subject: number) {
  return t.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.subjectUserId, subject))
    .orderBy(desc(auditEvents.id));
}

describe('walk-in customers created at the desk', () => {
  it('creates a phone-only customer the planner can book for, audited in the same act', async () => {
    const res = await create({
      first_name: 'Wanda',
      last_name: 'Walker',
      contact_phone: '(555) 010-2030',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { user, detail } = res.json();
    expect(detail).toBe('Created Wanda Walker.');
    expect(user).toMatchObject({
      first_name: 'Wanda',
      email: '',
      contact_phone: '(555) 010-2030',
      username: '5550102030',
    });
    const [audit] = await lastAudit(user.id);
    expect(audit).toMatchObject({ action: 'user.create_customer', actorId: desk.id });

    const venue = await createVenue(t, { seats: 1 });
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/planner/book',
      headers: bearer(desk.token),
      payload: {
        user: user.id,
        slots: [{ calendar: venue.seats[0].id, slot: `${futureDate(1)}T10:00` }],
        payment: 'desk',
      },
    });
    expect(booked.statusCode, booked.body).toBeLessThan(300);

    const again = await create({ first_name: 'Other', contact_phone: '555-010-2030' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ contact_phone: [PHONE_TAKEN_MESSAGE] });
  });

  it('mails a set-password link when asked, and refuses an address that has an account', async () => {
    const res = await create({
      first_name: 'Mia',
      email: 'Mia.Walkin@Example.com',
      send_login_link: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().detail).toBe(
      'Created Mia. We e-mailed mia.walkin@example.com a link to set a password.',
    );
    const [mail] = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, 'mia.walkin@example.com'));
    expect(mail.text).toContain('/login?token=');
    const actions = (await lastAudit(res.json().user.id)).map((a) => a.action).sort();
    expect(actions).toEqual(['user.create_customer', 'user.send_login_link']);

    const taken = await create({ first_name: 'Mia', email: 'mia.walkin@example.com' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ email: [EMAIL_TAKEN_MESSAGE] });
  });

  it('needs a name and an e-mail or phone, and a link needs an e-mail', async () => {
    expect((await create({ first_name: 'Nobody' })).json()).toEqual({
      email: [EMAIL_OR_PHONE_MESSAGE],
    });
    const noName = await create({ email: 'x@example.com' });
    expect(noName.statusCode).toBe(400);
    expect(Object.keys(noName.json())).toEqual(['first_name']);
    const link = await create({
      first_name: 'P',
      contact_phone: '5550000001',
      send_login_link: true,
    });
    expect(Object.keys(link.json())).toEqual(['send_login_link']);
  });

  it('is refused to customers and to staff without a desk permission', async () => {
    const customer = await createUser(t);
    expect(
      (await create({ first_name: 'X', contact_phone: '5550000002' }, customer)).statusCode,
    ).toBe(403);
    const reports = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
    expect(
      (await create({ first_name: 'X', contact_phone: '5550000003' }, reports)).statusCode,
    ).toBe(403);
  });
});
