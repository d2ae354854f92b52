import { queryOptions } from '@tanstack/react-query';
import type { CostBreakdown } from '@paddock/contract/reservations';
import { api } from '../../../lib/api-client';

/**
 * `GET /api/users/{id}/cost_breakdown`: the card cost lookup, item by item. Under the balance's
 * query key, so whatever refreshes the balance refreshes it too.
 */
export function costBreakdownQuery(userId: number) {
  return queryOptions({
    queryKey: ['users', userId, 'balance', 'cost'],
    queryFn: ({ signal }) => api<CostBreakdown>(`/users/${userId}/cost_breakdown`, { signal }),
  });
}
