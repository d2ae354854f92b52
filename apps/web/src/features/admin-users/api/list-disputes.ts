import { queryOptions } from '@tanstack/react-query';
import type { Dispute } from '@paddock/contract/disputes';
import { api } from '../../../lib/api-client';

/** `GET /api/users/{id}/disputes`: the customer's chargebacks, newest first (decision 0084). */
export function disputesQuery(userId: number) {
  return queryOptions({
    queryKey: ['users', userId, 'disputes'],
    queryFn: ({ signal }) => api<Dispute[]>(`/users/${userId}/disputes`, { signal }),
  });
}
