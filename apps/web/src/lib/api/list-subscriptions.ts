import { queryOptions } from '@tanstack/react-query';
import type { Subscription } from '@paddock/contract/club';
import type { Paginated } from '@paddock/contract/common';
import { ApiError, api } from '../api-client';

/** The fields of a club subscription the reservation form reads. */
export type BookingSubscription = Pick<
  Subscription,
  | 'id'
  | 'name'
  | 'reservations_remaining'
  | 'reservations_remaining_this_month'
  | 'reservations_remaining_next_month'
  | 'cancel_charge_back_cents'
>;

/**
 * `GET /api/users/me/subscriptions` (DESIGN §3). A venue whose server has no club answers
 * 404, which means no subscriptions.
 */
export const subscriptionsQuery = queryOptions({
  queryKey: ['users', 'me', 'subscriptions'],
  queryFn: async (): Promise<BookingSubscription[]> => {
    try {
      return (
        await api<Paginated<Subscription>>('/users/me/subscriptions', { query: { page_size: 100 } })
      ).results;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    }
  },
});
