import { queryOptions } from '@tanstack/react-query';
import type { AvailResponse } from '@paddock/contract/calendars';
import { api } from '../../../lib/api-client';

/** Staff §9: calendar availability refreshes every 60 s. */
export const AVAILABILITY_REFRESH_MS = 60_000;

/** `GET /api/calendars/{id}/avail?date=`: one seat's slots that day, as the caller sees them. */
export function seatAvailabilityQuery(calendarId: number, date: string) {
  return queryOptions({
    queryKey: ['avail', calendarId, date],
    queryFn: () => api<AvailResponse>(`/calendars/${calendarId}/avail`, { query: { date } }),
    staleTime: AVAILABILITY_REFRESH_MS,
    refetchInterval: AVAILABILITY_REFRESH_MS,
  });
}
