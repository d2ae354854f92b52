import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Location } from '@paddock/contract/locations';
import { api } from '../../../lib/api-client';

/** `GET /api/locations`: every location with its time zone, tax rate and post-booking URL. */
export const bookingLocationsQuery = queryOptions({
  queryKey: ['venue', 'booking-locations'],
  queryFn: async () =>
    (await api<Paginated<Location>>('/locations', { query: { page_size: 100 } })).results,
  staleTime: 60 * 60_000,
});
