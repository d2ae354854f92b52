import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PermissionsResponse, User } from '@paddock/contract/accounts';
import { api } from './api-client';
import { clearSession, getSession, setPermissions, setToken } from './auth-store';
import { clearPrivateQueries } from './query-client';
import { userQuery } from './current-user';

export function fetchPermissions() {
  return api<PermissionsResponse>('/auth/permissions');
}

/**
 * After login, signup or a login link: keep the token, seed the user cache and load the
 * permissions (spec §4: login stores the token and permissions).
 */
export async function startSession(client: QueryClient, access: string, user?: User) {
  clearPrivateQueries(client);
  if (!setToken(access)) throw new Error('The server sent an unreadable token.');
  if (user) client.setQueryData(userQuery(user.id).queryKey, user);
  setPermissions(await fetchPermissions());
}

/** Logout clears everything that belongs to the person (spec §4). */
export function endSession(client: QueryClient) {
  clearSession();
  clearPrivateQueries(client);
}

/**
 * Log Out: the server ends this session (the token stops working everywhere), then the local
 * session is cleared. An unreachable server must not keep anyone logged in on this device.
 */
let loggingOut: Promise<void> | null = null;
export function logOut(client: QueryClient): Promise<void> {
  // One call however often the screen asks (React runs effects twice in development).
  loggingOut ??= (async () => {
    const token = getSession()?.token;
    if (token)
      await fetch('/api/auth/logout', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    endSession(client);
  })().finally(() => {
    loggingOut = null;
  });
  return loggingOut;
}

export function useEndSession(): () => void {
  const client = useQueryClient();
  return useCallback(() => endSession(client), [client]);
}

export function useLogOut(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(() => logOut(client), [client]);
}
