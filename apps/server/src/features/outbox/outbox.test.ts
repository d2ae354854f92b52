import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser } from '../../test/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('outbox', () => {
  it('shows mail newest first to staff who manage users; staff mail only to superusers', async () => {
    const manager = await createUser(t, {
      isStaff: true,
      permissions: ['user.change_user', 'outbox.view_message'],
    });
    const admin = await createUser(t, { isSuperuser: true });
    const customer = await createUser(t);
    await t.deps.mailer.send({ to: customer.email, subject: 'First', text: 'one' });
    await t.deps.mailer.send({
      to: customer.email.toUpperCase(),
      subject: 'Second',
      text: 'two',
      html: '<p>two</p>',
    });
    await t.deps.mailer.send({ to: manager.email, subject: 'Staff only', text: 'secret' });

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/outbox',
      headers: bearer(manager.token),
    });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body).toMatchObject({ count: 2, page_count: 1, page_size: 25 });
    expect(body.results.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    // The list carries no bodies (they may hold login links, decision 0097).
    expect(body.results[0]).toEqual({
      id: expect.any(Number),
      to: customer.email.toUpperCase(),
      subject: 'Second',
      status: 'kept',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const second = await t.app.inject({
      method: 'GET',
      url: `/api/outbox/${body.results[0].id}`,
      headers: bearer(manager.token),
    });
    expect(second.json()).toEqual({ ...body.results[0], text: 'two', html: '<p>two</p>' });

    const all = await t.app.inject({
      method: 'GET',
      url: '/api/outbox?page_size=1',
      headers: bearer(admin.token),
    });
    expect(all.json()).toMatchObject({ count: 3, page_count: 3, page_size: 1 });
    const staffMail = all.json().results[0];
    expect(staffMail.subject).toBe('Staff only');

    const one = await t.app.inject({
      method: 'GET',
      url: `/api/outbox/${body.results[1].id}`,
      headers: bearer(manager.token),
    });
    expect(one.json().subject).toBe('First');
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/api/outbox/${staffMail.id}`,
      headers: bearer(manager.token),
    });
    expect(hidden.statusCode).toBe(404);
    const byAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/outbox/${staffMail.id}`,
      headers: bearer(admin.token),
    });
    expect(byAdmin.json().text).toBe('secret');
  });

  it('resends a mail to whoever may open it: with no mail server, a new kept copy, audited', async () => {
    const manager = await createUser(t, {
      isStaff: true,
      permissions: ['user.change_user', 'outbox.view_message'],
    });
    const admin = await createUser(t, { isSuperuser: true });
    const customer = await createUser(t);
    await t.deps.mailer.send({
      to: customer.email,
      subject: 'Your receipt',
      text: 'Paid $25.00',
      html: '<p>Paid $25.00</p>',
    });
    await t.deps.mailer.send({ to: manager.email, subject: 'Your login link', text: 'secret' });
    const list = async (who = admin) =>
      (await t.app.inject({ method: 'GET', url: '/api/outbox', headers: bearer(who.token) })).json()
        .results as { id: number; subject: string; to: string; status: string }[];
    const [staffMail, receipt] = await list();
    expect(receipt.subject).toBe('Your receipt');

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/outbox/${receipt.id}/resend`,
      headers: bearer(manager.token),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      status: 'kept',
      detail: `Kept a new copy of “Your receipt” to ${customer.email} in the outbox: no mail server is set, so it was not sent.`,
    });
    const after = await list(manager);
    expect(after[0]).toMatchObject({ subject: 'Your receipt', to: customer.email, status: 'kept' });
    expect(after[0].id).toBeGreaterThan(receipt.id);
    const copy = await t.app.inject({
      method: 'GET',
      url: `/api/outbox/${after[0].id}`,
      headers: bearer(manager.token),
    });
    expect(copy.json()).toMatchObject({ text: 'Paid $25.00', html: '<p>Paid $25.00</p>' });
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/audit?action=outbox.resend',
      headers: bearer(admin.token),
    });
    expect(audit.json().results[0]).toMatchObject({
      action: 'outbox.resend',
      target_id: receipt.id,
      after: { to: customer.email, subject: 'Your receipt', status: 'kept' },
    });

    // Mail to a staff account stays the superuser's, for resending too; nothing is written.
    const kept = (await list()).length;
    const hidden = await t.app.inject({
      method: 'POST',
      url: `/api/outbox/${staffMail.id}/resend`,
      headers: bearer(manager.token),
    });
    expect(hidden.statusCode).toBe(404);
    expect(await list()).toHaveLength(kept);
    const byAdmin = await t.app.inject({
      method: 'POST',
      url: `/api/outbox/${staffMail.id}/resend`,
      headers: bearer(admin.token),
    });
    expect(byAdmin.statusCode).toBe(201);
  });

  it('is closed to customers, anonymous visitors and staff who cannot change users', async () => {
    const customer = await createUser(t);
    const planner = await createUser(t, {
      isStaff: true,
      permissions: ['reservations.change_reservation'],
    });
    for (const [method, url] of [
      ['GET', '/api/outbox'],
      ['GET', '/api/outbox/1'],
      ['POST', '/api/outbox/1/resend'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
      for (const u of [customer, planner]) {
        const res = await t.app.inject({ method, url, headers: bearer(u.token) });
        expect(res.statusCode).toBe(403);
      }
    }
  });

  it('names bad paging and ids, and 404s a missing message', async () => {
    const admin = await createUser(t, { isSuperuser: true });
    const headers = bearer(admin.token);
    const badPage = await t.app.inject({ method: 'GET', url: '/api/outbox?page=x', headers });
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json()).toHaveProperty('page');
    const badId = await t.app.inject({ method: 'GET', url: '/api/outbox/-1', headers });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toHaveProperty('id');
    const missing = await t.app.inject({ method: 'GET', url: '/api/outbox/999999', headers });
    expect(missing.statusCode).toBe(404);
    for (const id of ['-1', 'x', '1.5', '99999999999']) {
      const bad = await t.app.inject({ method: 'POST', url: `/api/outbox/${id}/resend`, headers });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toHaveProperty('id');
    }
    const gone = await t.app.inject({ method: 'POST', url: '/api/outbox/999999/resend', headers });
    expect(gone.statusCode).toBe(404);
  });
});
