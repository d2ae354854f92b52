import { queryOptions } from '@tanstack/react-query';
import type { CalendarType } from '@paddock/contract/calendars';
import type { Paginated } from '@paddock/contract/common';
import { api } from '../../../lib/api-client';

/** `GET /api/caltypes`; spec §3: cached 3600 s. */
export const calendarTypesQuery = queryOptions({
  queryKey: ['venue', 'caltypes'],
  queryFn: async () =>
    (await api<Paginated<CalendarType>>('/caltypes', { query: { page_size: 100 } })).results,
  staleTime: 3600_000,
});
