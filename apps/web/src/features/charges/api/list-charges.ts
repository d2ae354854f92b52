import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Charge } from '@paddock/contract/charges';
import type { Paginated } from '@paddock/contract/common';
import { api } from '../../../lib/api-client';

export const CHARGES_PAGE_SIZE = 25;

/**
 * `GET /api/users/me/charges?amount_cents__gt=0`: the user's card charges, newest first;
 * `user` (staff with user.change_user) asks for another user's.
 */
export function chargesQuery(page: number, user?: number) {
  return queryOptions({
    queryKey: ['users', user ?? 'me', 'charges', { page }],
    queryFn: ({ signal }) =>
      api<Paginated<Charge>>('/users/me/charges', {
        query: { amount_cents__gt: 0, page, page_size: CHARGES_PAGE_SIZE, user },
        signal,
      }),
    placeholderData: keepPreviousData,
    // Opening the modal again shows what happened since.
    staleTime: 0,
  });
}
