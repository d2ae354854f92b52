import { describe, expect, it } from 'vitest';
import { fakeToken } from '../test/api-stub';
import {
  clearSession,
  decodeToken,
  getSession,
  hasPermission,
  isStaff,
  restoreSession,
  setPermissions,
  setToken,
} from './auth-store';

describe('auth store', () => {
  it('reads user_id and exp from a token', () => {
    const token = fakeToken(12, 60);
    expect(decodeToken(token)).toMatchObject({ user_id: 12 });
    expect(decodeToken('not-a-token')).toBeNull();
  });

  it('keeps a live token across a restart and forgets an expired one', () => {
    setToken(fakeToken(5, 600));
    setPermissions({ is_staff: true, is_superuser: false, permissions: ['user.change_user'] });
    expect(restoreSession()?.userId).toBe(5);
    expect(getSession()?.permissions?.permissions).toEqual(['user.change_user']);

    setToken(fakeToken(5, -10));
    expect(restoreSession()).toBeNull();
    expect(localStorage.getItem('paddock.token')).toBeNull();
  });

  it('logout clears the token and permissions', () => {
    setToken(fakeToken(5));
    setPermissions({ is_staff: false, is_superuser: false, permissions: [] });
    clearSession();
    expect(getSession()).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('a superuser holds every permission; staff status comes from the permissions call', () => {
    setToken(fakeToken(1));
    setPermissions({ is_staff: false, is_superuser: true, permissions: [] });
    expect(hasPermission(getSession(), 'reservations.change_reservation')).toBe(true);
    expect(isStaff(getSession())).toBe(true);
    setPermissions({ is_staff: true, is_superuser: false, permissions: [] });
    expect(hasPermission(getSession(), 'reservations.change_reservation')).toBe(false);
  });
});
