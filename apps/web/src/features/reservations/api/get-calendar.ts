import { queryOptions } from '@tanstack/react-query';
import type { Calendar } from '@paddock/contract/calendars';
import { api } from '../../../lib/api-client';

/** `GET /api/calendars/{id}`; spec §3: cached 3600 s. */
export function calendarQuery(id: number) {
  return queryOptions({
    queryKey: ['venue', 'calendar', id],
    queryFn: () => api<Calendar>(`/calendars/${id}`),
    staleTime: 3600_000,
  });
}
