import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ALL_LOCATIONS,
  expandPlannerDay,
  PLANNER_REFRESH_MS,
  type PlannerAttendance,
  type PlannerBlackout,
  type PlannerBook,
  type PlannerDayWire,
  type PlannerDelete,
  type PlannerMove,
  type PlannerResult,
} from '@paddock/contract/planner';
import type { Paginated } from '@paddock/contract/common';
import type { User } from '@paddock/contract/accounts';
import { api } from '../../../lib/api-client';
import { showAlert } from '../../../lib/alerts';
import { checkoutErrorMessage } from '../../../lib/booking-errors';

/**
 * A location's (or every location's) day; refreshed every 10 minutes (spec staff §9) and on every
 * change in the feed.
 */
export const plannerDayQuery = (date: string, location: number | typeof ALL_LOCATIONS | null) =>
  queryOptions({
    queryKey: ['planner', date, location],
    queryFn: async () =>
      expandPlannerDay(
        await api<PlannerDayWire>('/planner', {
          query: { date, location: location ?? undefined },
        }),
      ),
    refetchInterval: PLANNER_REFRESH_MS,
  });

export const userSearchQuery = (search: string) =>
  queryOptions({
    queryKey: ['users', 'search', search],
    queryFn: () => api<Paginated<User>>('/users', { query: { search, page_size: 25 } }),
    enabled: search.trim() !== '',
  });

type Actions = {
  blackout: PlannerBlackout;
  delete: PlannerDelete;
  book: PlannerBook;
  move: PlannerMove;
  attendance: PlannerAttendance;
};

/** One With Selected action: its call, then its success text and a fresh day. */
export function usePlannerAction<K extends keyof Actions>(action: K, onDone?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Actions[K]) =>
      api<PlannerResult>(`/planner/${action}`, { method: 'POST', body }),
    onSuccess: (result) => {
      showAlert(result.detail, 'success', 5_000);
      onDone?.();
    },
    // A seat someone else just took reads as the spec's "no longer available".
    onError: (error) => showAlert(checkoutErrorMessage(error), 'danger'),
    onSettled: () => client.invalidateQueries({ queryKey: ['planner'] }),
  });
}
