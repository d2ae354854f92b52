import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@paddock/contract/accounts';
import { ApiError, api, notifyTokenInvalid } from './api-client';
import { useSession } from './auth-store';

export function userQuery(userId: number) {
  return queryOptions({
    queryKey: ['users', userId],
    queryFn: async () => {
      try {
        return await api<User>(`/users/${userId}`);
      } catch (error) {
        // Spec §8: a 401 while loading the user goes to login with errorCode tokenExpired.
        if (error instanceof ApiError && error.status === 401 && error.code !== 'token_not_valid') {
          notifyTokenInvalid();
        }
        throw error;
      }
    },
  });
}

/** The signed-in user (undefined while loading or when logged out). */
export function useCurrentUser() {
  const session = useSession();
  return useQuery({ ...userQuery(session?.userId ?? 0), enabled: !!session });
}

/** Spec §3: display_name, then racer_name, then full name, then e-mail. */
export function displayName(
  user: Pick<User, 'display_name' | 'racer_name' | 'first_name' | 'last_name' | 'email'>,
): string {
  const fullName = `${user.first_name} ${user.last_name}`.trim();
  return user.display_name || user.racer_name || fullName || user.email;
}
