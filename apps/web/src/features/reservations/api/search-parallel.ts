import { queryOptions } from '@tanstack/react-query';
import type { ParallelResponse } from '@paddock/contract/calendars';
import { api } from '../../../lib/api-client';
import { AVAILABILITY_REFRESH_MS } from './get-seat-availability';

export type ParallelSearch = {
  date: string;
  location: number;
  /** Racers who want to sit side by side. */
  racers: number;
  /** Race minutes, a multiple of 30. */
  minutes: number;
  types: number[];
};

/** The booking screen's first search: one racer, 30 minutes, every simulator type. */
export const OPENING_SEARCH = { racers: 1, minutes: 30, types: [] as readonly number[] };

/**
 * `GET /api/calendars/parallel?date&block=30&location&sessions&racers`: the seats where the
 * whole group fits, each with the start slots where it does.
 */
export function parallelQuery(search: ParallelSearch) {
  return queryOptions({
    queryKey: ['parallel', search],
    queryFn: () =>
      api<ParallelResponse>('/calendars/parallel', {
        query: {
          date: search.date,
          block: 30,
          location: search.location,
          sessions: search.minutes / 30,
          racers: search.racers,
          type__in: search.types.length ? search.types.join(',') : undefined,
        },
      }),
    staleTime: AVAILABILITY_REFRESH_MS,
    refetchInterval: AVAILABILITY_REFRESH_MS,
  });
}
