import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Lap } from '@paddock/contract/laps';
import { api } from '../../../lib/api-client';

export type LapFilters = {
  search: string;
  validOnly: boolean;
  group: number | null;
  track: number | null;
  page: number;
};

/** Ranked view (spec §2 /laps): group, track and valid-only all set. */
export const isRanked = (f: LapFilters) => f.validOnly && f.group !== null && f.track !== null;

/** `GET /api/laps` for the signed-in racer. */
export const myLapsQuery = (f: LapFilters) =>
  queryOptions({
    queryKey: ['laps', 'me', f],
    queryFn: () =>
      api<Paginated<Lap>>('/laps', {
        query: {
          user: 'me',
          approved: f.validOnly ? true : undefined,
          search: f.search || undefined,
          track: f.track ?? undefined,
          car__groups__id: f.group ?? undefined,
          ordering: isRanked(f) ? 'rank' : '-created',
          page: f.page,
        },
      }),
    placeholderData: keepPreviousData,
  });
