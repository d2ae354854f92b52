import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Reservation } from '@paddock/contract/reservations';
import { api } from '../../../lib/api-client';

/**
 * `GET /api/users/me/reservations/future?group_base=true`: the caller's bookings that are not
 * over yet, back-to-back slots on one seat merged into one entry, soonest first.
 */
export const futureReservationsQuery = queryOptions({
  queryKey: ['reservations', 'future'],
  queryFn: async () =>
    (
      await api<Paginated<Reservation>>('/users/me/reservations/future', {
        query: { group_base: true, page_size: 100 },
      })
    ).results,
});
