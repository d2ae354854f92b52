import { queryOptions } from '@tanstack/react-query';
import type { Calendar } from '@paddock/contract/calendars';
import type { Paginated } from '@paddock/contract/common';
import { api } from '../../../lib/api-client';

/** `GET /api/calendars?location&type__in`: a location's seats in their display order. */
export function calendarsQuery(location: number, types: number[]) {
  return queryOptions({
    queryKey: ['venue', 'calendars', { location, types }],
    queryFn: async () =>
      (
        await api<Paginated<Calendar>>('/calendars', {
          query: {
            location,
            type__in: types.length ? types.join(',') : undefined,
            page_size: 100,
          },
        })
      ).results,
    // Spec §3: calendars are cached 3600 s.
    staleTime: 3600_000,
  });
}
