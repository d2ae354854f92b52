import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const put = (who: CreatedUser, id: number, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/users/${id}/permissions`,
    headers: bearer(who.token),
    payload,
  });
const perms = async (who: CreatedUser) =>
  (await t.app.inject({ url: '/api/auth/permissions', headers: bearer(who.token) })).json();

describe('granting permissions', () => {
  it('lets a superuser make a customer staff with chosen permissions, at once', async () => {
    const admin = await createUser(t, { isStaff: true, isSuperuser: true });
    const racer = await createUser(t);
    expect(
      (await t.app.inject({ url: '/api/users', headers: bearer(racer.token) })).statusCode,
    ).toBe(403);
    const res = await put(admin, racer.id, {
      is_staff: true,
      permissions: ['user.view_user', 'user.view_user'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      is_staff: true,
      is_superuser: false,
      permissions: ['user.view_user'],
    });
    expect(await perms(racer)).toMatchObject({ is_staff: true, permissions: ['user.view_user'] });
    expect(
      (await t.app.inject({ url: '/api/users', headers: bearer(racer.token) })).statusCode,
    ).toBe(200);
    await put(admin, racer.id, { is_staff: false, permissions: [] });
    expect(
      (await t.app.inject({ url: '/api/users', headers: bearer(racer.token) })).statusCode,
    ).toBe(403);
  });

  it('refuses unknown permission strings, superusers as targets, and oneself', async () => {
    const manager = await createUser(t, { isStaff: true, permissions: ['user.change_staff'] });
    const admin = await createUser(t, { isStaff: true, isSuperuser: true });
    const racer = await createUser(t);
    const unknown = await put(manager, racer.id, {
      is_staff: true,
      permissions: ['everything.do_all'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toHaveProperty(['permissions.0']);
    expect((await put(manager, admin.id, { is_staff: true, permissions: [] })).statusCode).toBe(
      404,
    );
    expect((await put(admin, admin.id, { is_staff: true, permissions: [] })).statusCode).toBe(400);
    expect(
      (await put(manager, manager.id, { is_staff: true, permissions: ['user.change_user'] }))
        .statusCode,
    ).toBe(400);
    const plain = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    expect((await put(plain, racer.id, { is_staff: true, permissions: [] })).statusCode).toBe(403);
  });
});

describe('staff pass on only what they hold (decision 0073)', () => {
  const trail = async (auditor: CreatedUser, userId: number) =>
    (
      await t.app.inject({ url: `/api/audit?user=${userId}`, headers: bearer(auditor.token) })
    ).json().results as { action: string; actor: number; before: unknown; after: unknown }[];

  it('grants and revokes own permissions, leaves others as they are, and audits each act', async () => {
    const admin = await createUser(t, { isStaff: true, isSuperuser: true });
    const manager = await createUser(t, {
      isStaff: true,
      permissions: ['user.change_staff', 'user.view_user'],
    });
    const racer = await createUser(t);
    // A superuser gave the racer a power the manager lacks.
    expect(
      (await put(admin, racer.id, { is_staff: true, permissions: ['outbox.view_message'] }))
        .statusCode,
    ).toBe(200);
    // The manager may add what they hold while the other stays untouched...
    const added = await put(manager, racer.id, {
      is_staff: true,
      permissions: ['outbox.view_message', 'user.view_user'],
    });
    expect(added.statusCode).toBe(200);
    // ...but may not take away, nor remove from the staff, what they do not hold.
    const revoke = await put(manager, racer.id, {
      is_staff: true,
      permissions: ['user.view_user'],
    });
    expect(revoke.statusCode).toBe(403);
    expect(revoke.json().detail).toBe(
      'You can only grant or revoke permissions you hold yourself; not yours: Read the mail outbox.',
    );
    expect((await put(manager, racer.id, { is_staff: false, permissions: [] })).statusCode).toBe(
      403,
    );
    expect(await perms(racer)).toMatchObject({
      is_staff: true,
      permissions: ['outbox.view_message', 'user.view_user'],
    });
    // Off the staff means no permissions: said plainly, not half-done.
    const offWith = await put(admin, racer.id, {
      is_staff: false,
      permissions: ['user.view_user'],
    });
    expect(offWith.statusCode).toBe(400);
    expect(offWith.json()).toEqual({
      permissions: ['Someone who is not on the staff holds no permissions.'],
    });
    expect((await put(admin, racer.id, { is_staff: false, permissions: [] })).statusCode).toBe(200);

    const rows = await trail(admin, racer.id);
    expect(rows.map((r) => [r.action, r.actor, r.before, r.after])).toEqual([
      ['staff.remove_staff', admin.id, { is_staff: true }, { is_staff: false }],
      ['staff.revoke_permission', admin.id, { permission: 'user.view_user' }, null],
      ['staff.revoke_permission', admin.id, { permission: 'outbox.view_message' }, null],
      ['staff.grant_permission', manager.id, null, { permission: 'user.view_user' }],
      ['staff.grant_permission', admin.id, null, { permission: 'outbox.view_message' }],
      ['staff.make_staff', admin.id, { is_staff: false }, { is_staff: true }],
    ]);
  });

  it('treats an invitation as a grant: only what the inviter holds, each act audited', async () => {
    const admin = await createUser(t, { isStaff: true, isSuperuser: true });
    const manager = await createUser(t, {
      isStaff: true,
      permissions: ['user.change_staff', 'user.view_user'],
    });
    const racer = await createUser(t);
    const invite = (permissions: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/staff/invite',
        headers: bearer(manager.token),
        payload: { email: racer.email, permissions },
      });
    expect((await invite(['user.view_user', 'audit.view_event'])).statusCode).toBe(403);
    expect(await perms(racer)).toMatchObject({ is_staff: false, permissions: [] });
    expect((await invite(['user.view_user'])).statusCode).toBe(201);
    expect(await perms(racer)).toMatchObject({ is_staff: true, permissions: ['user.view_user'] });
    expect((await trail(admin, racer.id)).map((r) => r.action).sort()).toEqual([
      'staff.grant_permission',
      'staff.invite',
      'staff.make_staff',
    ]);
  });

  it('records a customer made superuser as made staff too', async () => {
    const admin = await createUser(t, { isStaff: true, isSuperuser: true });
    const racer = await createUser(t);
    const made = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/${racer.id}/superuser`,
      headers: bearer(admin.token),
      payload: { is_superuser: true },
    });
    expect(made.statusCode).toBe(200);
    expect((await trail(admin, racer.id)).map((r) => r.action).sort()).toEqual([
      'staff.make_staff',
      'staff.make_superuser',
    ]);
  });
});
