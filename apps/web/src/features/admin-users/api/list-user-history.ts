import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Reservation } from '@paddock/contract/reservations';
import { api } from '../../../lib/api-client';

/** Staff spec §9: history page size. */
export const HISTORY_PAGE_SIZE = 50;

/** `GET /api/reservations?user=&ordering=slot&page_size=50`: the user's reservations. */
export function userHistoryQuery(userId: number, page: number) {
  return queryOptions({
    queryKey: ['reservations', { user: userId, page, page_size: HISTORY_PAGE_SIZE }],
    queryFn: ({ signal }) =>
      api<Paginated<Reservation>>('/reservations', {
        query: { user: userId, ordering: 'slot', page, page_size: HISTORY_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
