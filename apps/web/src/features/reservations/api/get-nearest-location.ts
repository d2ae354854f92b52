import { queryOptions } from '@tanstack/react-query';
import type { Location } from '@paddock/contract/locations';
import { ApiError, api } from '../../../lib/api-client';

/**
 * `GET /api/locations/nearest`: the customer's own location, else the first. Spec §7: a 200
 * returns a location, anything else means none (null here).
 */
export function nearestLocationQuery(userId: number) {
  return queryOptions({
    queryKey: ['locations', 'nearest', userId],
    queryFn: async () => {
      try {
        return await api<Location>('/locations/nearest');
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 60 * 60_000,
  });
}
