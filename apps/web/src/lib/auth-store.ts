import { useSyncExternalStore } from 'react';
import type { PermissionsResponse, TokenPayload } from '@paddock/contract/accounts';

/** The signed-in session: the JWT (kept in localStorage) and the permissions call's answer. */
export type Session = {
  token: string;
  userId: number;
  /** Seconds since the epoch, from the token's `exp`. */
  expiresAt: number;
  /**
   * A session opened by a login link sets a new password without the current one until then
   * (seconds since the epoch; the token's `password_reset_until`, decision 0113); null otherwise.
   */
  passwordResetUntil?: number | null;
  permissions: PermissionsResponse | null;
};

const TOKEN_KEY = 'paddock.token';
const PERMISSIONS_KEY = 'paddock.permissions';

/** A JWT's payload (its second part, base64url JSON); throws if it is not one. */
function jwtPayload(token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('not a JWT');
  const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new Error('not a JWT payload');
  return payload as Record<string, unknown>;
}

/**
 * Reads `{user_id, exp}` from a JWT without verifying it (the server verifies); null if
 * unreadable. Decoded here rather than with jose's `decodeJwt`, which put 2 KiB gzip of jose
 * on every page's first paint (decision 0048).
 */
export function decodeToken(token: string): TokenPayload | null {
  try {
    const { user_id: userId, exp, password_reset_until: resetUntil } = jwtPayload(token);
    if (typeof userId !== 'number' || typeof exp !== 'number') return null;
    return typeof resetUntil === 'number'
      ? { user_id: userId, exp, password_reset_until: resetUntil }
      : { user_id: userId, exp };
  } catch {
    return null;
  }
}

export function isTokenLive(token: string, nowMs = Date.now()): boolean {
  const payload = decodeToken(token);
  return payload !== null && payload.exp * 1000 > nowMs;
}

let current: Session | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the session still lives in memory for this tab.
  }
}

/**
 * App start: takes the stored token if it has not expired, otherwise forgets it.
 * Returns the restored session (null when there is none).
 */
export function restoreSession(nowMs = Date.now()): Session | null {
  const token = readStorage(TOKEN_KEY);
  const payload = token ? decodeToken(token) : null;
  if (!token || !payload || payload.exp * 1000 <= nowMs) {
    clearSession();
    return null;
  }
  let permissions: PermissionsResponse | null;
  try {
    permissions = JSON.parse(readStorage(PERMISSIONS_KEY) ?? 'null') as PermissionsResponse | null;
  } catch {
    permissions = null;
  }
  current = {
    token,
    userId: payload.user_id,
    expiresAt: payload.exp,
    passwordResetUntil: payload.password_reset_until ?? null,
    permissions,
  };
  emit();
  return current;
}

/** Stores a new token; false when the token cannot be read. Permissions are set separately. */
export function setToken(token: string): boolean {
  const payload = decodeToken(token);
  if (!payload) return false;
  writeStorage(TOKEN_KEY, token);
  const samePerson = current?.userId === payload.user_id;
  current = {
    token,
    userId: payload.user_id,
    expiresAt: payload.exp,
    passwordResetUntil: payload.password_reset_until ?? null,
    permissions: samePerson ? (current?.permissions ?? null) : null,
  };
  if (!samePerson) writeStorage(PERMISSIONS_KEY, null);
  emit();
  return true;
}

export function setPermissions(permissions: PermissionsResponse) {
  if (!current) return;
  writeStorage(PERMISSIONS_KEY, JSON.stringify(permissions));
  current = { ...current, permissions };
  emit();
}

/** Logout: forgets the token and permissions (query caches are cleared by the caller). */
export function clearSession() {
  writeStorage(TOKEN_KEY, null);
  writeStorage(PERMISSIONS_KEY, null);
  if (current !== null) {
    current = null;
    emit();
  }
}

export function getSession(): Session | null {
  return current;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** Mirrors the server's rule: a superuser holds every permission. */
export function hasPermission(session: Session | null, permission: string): boolean {
  const p = session?.permissions;
  if (!p) return false;
  return p.is_superuser || p.permissions.includes(permission);
}

/**
 * Whether changing this user's own password asks for the current one: yes once they chose a
 * password, unless this session came from a login link whose reset allowance still runs (0113).
 */
export function asksCurrentPassword(
  session: Session | null,
  isOnboarded: boolean,
  nowMs = Date.now(),
): boolean {
  if (!isOnboarded) return false;
  return !(session?.passwordResetUntil && session.passwordResetUntil * 1000 > nowMs);
}

export function isStaff(session: Session | null): boolean {
  const p = session?.permissions;
  return !!p && (p.is_staff || p.is_superuser);
}
