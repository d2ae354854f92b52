import { queryOptions } from '@tanstack/react-query';
import type { PublicAvailability } from '@paddock/contract/public-availability';
import { api } from '../../../lib/api-client';

/** `GET /api/public/availability`: a location's seats, prices and free starts, for visitors. */
export function publicAvailabilityQuery(location: number, date: string) {
  return queryOptions({
    queryKey: ['public-avail', location, date],
    queryFn: () => api<PublicAvailability>('/public/availability', { query: { location, date } }),
    staleTime: 60_000,
    refetchInterval: 60_000,
    retry: false,
  });
}
