import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import type { Permission } from '@paddock/contract/accounts';
import { LAST_SUPERUSER_MESSAGE, STAFF_EXISTS_MESSAGE } from '@paddock/contract/staff';
import { outboxMessages } from '../../db/schema/content';
import { users } from '../../db/schema/accounts';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';

let t: TestApp;
let manager: CreatedUser;
const MANAGER_HOLDS: Permission[] = [
  'audit.view_event',
  'reports.view_report',
  'reservations.change_reservation',
  'screens.change_screen',
  'user.change_staff',
];
beforeAll(async () => {
  t = await createTestApp();
  // Staff pass on only what they hold (decision 0073): this manager holds what they grant here.
  manager = await createUser(t, { isStaff: true, permissions: MANAGER_HOLDS });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function mailTo(to: string) {
  // The outbox row is written in the request: no waiting.
  const [row] = await t.db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.to, to))
    .orderBy(desc(outboxMessages.id))
    .limit(1);
  return row;
}

describe('staff', () => {
  it('invites a new address: an account on the staff with the permissions, and a login link that works', async () => {
    const res = await call('POST', '/api/staff/invite', manager, {
      email: 'New.Desk@Example.com',
      first_name: 'Nia',
      last_name: 'Desk',
      permissions: ['reservations.change_reservation', 'reports.view_report'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().detail).toBe('Invited new.desk@example.com: a login link is on its way.');
    const mail = await mailTo('new.desk@example.com');
    expect(mail.subject).toMatch(/^You are invited to the .* staff$/);
    const link = new URL(/https?:\/\/\S+\/login\?\S+/.exec(mail.text)![0]);
    expect(link.searchParams.get('redirect')).toBe('/profile/password/change');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login_link',
      payload: { token: link.searchParams.get('token') },
    });
    expect(login.statusCode, login.body).toBe(200);
    const permissions = await t.app.inject({
      url: '/api/auth/permissions',
      headers: bearer(login.json().access),
    });
    expect(permissions.json()).toEqual({
      is_staff: true,
      is_superuser: false,
      permissions: ['reports.view_report', 'reservations.change_reservation'],
    });

    const list = (await call('GET', '/api/staff', manager)).json().results as {
      email: string;
      first_name: string;
      permissions: string[];
    }[];
    expect(list.find((m) => m.email === 'new.desk@example.com')).toMatchObject({
      first_name: 'Nia',
      permissions: ['reports.view_report', 'reservations.change_reservation'],
    });
    expect(list.find((m) => m.email === manager.email)?.permissions).toEqual([...MANAGER_HOLDS]);
  });

  it('promotes an existing customer, and refuses someone already on the staff or a bad e-mail', async () => {
    const customer = await createUser(t);
    const res = await call('POST', '/api/staff/invite', manager, {
      email: customer.email.toUpperCase(),
      permissions: ['screens.change_screen'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(row.isStaff).toBe(true);
    expect(await mailTo(customer.email)).toBeDefined();

    const again = await call('POST', '/api/staff/invite', manager, {
      email: customer.email,
      permissions: [],
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ email: [STAFF_EXISTS_MESSAGE] });
    const bad = await call('POST', '/api/staff/invite', manager, {
      email: 'nope',
      permissions: [],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['email']);
    const badPermission = await call('POST', '/api/staff/invite', manager, {
      email: 'x@example.com',
      permissions: ['root.everything'],
    });
    expect(badPermission.statusCode).toBe(400);
    expect(Object.keys(badPermission.json())[0]).toMatch(/^permissions/);
  });

  it('revokes through PUT /users/{id}/permissions, and the list shows it', async () => {
    const desk = await createUser(t, { isStaff: true, permissions: ['audit.view_event'] });
    const res = await call('PUT', `/api/users/${desk.id}/permissions`, manager, {
      is_staff: false,
      permissions: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = (await call('GET', '/api/staff', manager)).json().results as { id: number }[];
    expect(list.some((m) => m.id === desk.id)).toBe(false);
  });

  it('a superuser makes and unmakes superusers, never the last one; others may not', async () => {
    // This database's superusers: only the ones made here.
    await t.db.update(users).set({ isSuperuser: false });
    const owner = await createUser(t, { isStaff: true, isSuperuser: true });
    const partner = await createUser(t, { isStaff: true });
    const put = (who: CreatedUser, id: number, is_superuser: boolean) =>
      call('PUT', `/api/staff/${id}/superuser`, who, { is_superuser });

    expect((await put(manager, partner.id, true)).statusCode).toBe(403);
    const made = await put(owner, partner.id, true);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ id: partner.id, is_superuser: true });

    // Two superusers: one may step down; then the other is the last and cannot.
    expect((await put(partner, owner.id, false)).json()).toMatchObject({ is_superuser: false });
    const last = await put(partner, partner.id, false);
    expect(last.statusCode).toBe(400);
    expect(last.json()).toEqual({ is_superuser: [LAST_SUPERUSER_MESSAGE] });
    expect((await put(partner, 999999, true)).statusCode).toBe(404);
  });
});
