import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { VenueConfig } from '@paddock/contract/venue';
import { api } from './api-client';

/** `OPTIONS /api/`: club name, company, nav links, terms texts, payment provider (DESIGN §5). */
export const venueConfigQuery = queryOptions({
  queryKey: ['venue', 'config'],
  queryFn: () => api<VenueConfig>('/', { method: 'OPTIONS' }),
  staleTime: 10 * 60_000,
});

/** The venue configuration; loaded before the first screen renders, so it is always there. */
export function useVenueConfig(): VenueConfig {
  return useSuspenseQuery(venueConfigQuery).data;
}
