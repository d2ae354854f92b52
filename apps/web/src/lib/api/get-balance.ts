import { queryOptions } from '@tanstack/react-query';
import type { Balance } from '@paddock/contract/reservations';
import { api } from '../api-client';

/** `GET /api/users/{id}/balance`: what the user owes and for what. */
export function balanceQuery(userId: number) {
  return queryOptions({
    queryKey: ['users', userId, 'balance'],
    queryFn: ({ signal }) => api<Balance>(`/users/${userId}/balance`, { signal }),
  });
}
