import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Board, Lap, PointsEntry } from '@paddock/contract/laps';
import { api } from '../../../lib/api-client';

export const boardsQuery = () =>
  queryOptions({
    queryKey: ['boards'],
    queryFn: () => api<Board[]>('/boards', { auth: false }),
  });

/** A TIME board's entries (`count` of them). */
export const boardResultsQuery = (id: number, count: number) =>
  queryOptions({
    queryKey: ['boards', id, 'results', count],
    queryFn: () => api<Lap[]>(`/boards/${id}/results`, { auth: false, query: { count } }),
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
