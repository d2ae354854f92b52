import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Board, Lap, PointsEntry } from '@paddock/contract/laps';
import { api } from '../api-client';

/** How many entries the leaderboard page shows (podium + table). */
export const LEADERBOARD_ENTRIES = 50;

export const boardsQuery = () =>
  queryOptions({
    queryKey: ['boards'],
    queryFn: () => api<Board[]>('/boards', { auth: false }),
  });

export type ResultsFilter = { car: number | null; tyre: string | null };
const NO_FILTER: ResultsFilter = { car: null, tyre: null };

/** A TIME board's entries (`count` of them), optionally for one car or one tyre. */
export const boardResultsQuery = (id: number, count: number, filter: ResultsFilter = NO_FILTER) =>
  queryOptions({
    queryKey: ['boards', id, 'results', count, filter.car, filter.tyre],
    queryFn: () =>
      api<Lap[]>(`/boards/${id}/results`, {
        auth: false,
        query: { count, car: filter.car ?? undefined, tyre: filter.tyre ?? undefined },
      }),
  });

/** A POINTS board's standings; spec §9: page size 15 unless given. */
export const pointsQuery = (id: number, pageSize = 15) =>
  queryOptions({
    queryKey: ['boards', id, 'teams', pageSize],
    queryFn: () =>
      api<Paginated<PointsEntry>>('/teams', {
        auth: false,
        query: { board: id, approved: true, page_size: pageSize },
      }),
  });
