import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import { ApiError, api } from '../../../lib/api-client';

/**
 * A club subscription as the booking screen needs it (customer §3 Subscription). The club
 * feature owns the full shape; these are the fields the reservation form reads.
 */
export type BookingSubscription = {
  id: number;
  reservations_remaining: number;
  reservations_remaining_this_month: number;
  reservations_remaining_next_month: number;
};

/**
 * `GET /api/users/me/subscriptions` (DESIGN §3). Until the club exists the call may answer
 * 404, which means no subscriptions. Lists and bare arrays are both accepted.
 */
export const subscriptionsQuery = queryOptions({
  queryKey: ['users', 'me', 'subscriptions'],
  queryFn: async (): Promise<BookingSubscription[]> => {
    try {
      const answer = await api<Paginated<BookingSubscription> | BookingSubscription[]>(
        '/users/me/subscriptions',
      );
      return Array.isArray(answer) ? answer : answer.results;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    }
  },
});
