import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PermissionsResponse, User } from '@paddock/contract/accounts';
import { api } from './api-client';
import { clearSession, setPermissions, setToken } from './auth-store';
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

export function useEndSession(): () => void {
  const client = useQueryClient();
  return useCallback(() => endSession(client), [client]);
}
