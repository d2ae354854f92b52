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
