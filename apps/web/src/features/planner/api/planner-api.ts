import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ALL_LOCATIONS,
  expandPlannerDay,
  PLANNER_REFRESH_MS,
  type OutOfService,
  type OutOfServicePlan,
  type OutOfServiceResult,
  type PlannerAttendance,
  type PlannerBookPrice,
  type PlannerBookQuote,
  type PlannerBlackout,
  type PlannerBook,
  type PlannerDayWire,
  type PlannerDelete,
  type PlannerDeleteQuote,
  type PlannerMove,
  type PlannerRefundQuote,
  type PlannerResult,
} from '@paddock/contract/planner';
import type { WalkInQuoteRequest } from '@paddock/contract/walk-in';
import type { Paginated } from '@paddock/contract/common';
import type { User } from '@paddock/contract/accounts';
import type { MoveQuote } from '@paddock/contract/refunds';
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

/** What taking a seat out of service for the range would do (nothing changes yet). */
export const outOfServicePreviewQuery = (range: { calendar: number; from: string; to: string }) =>
  queryOptions({
    // Not under 'planner': a change refetches the day, never a preview of what was just done.
    queryKey: ['out_of_service_preview', range],
    queryFn: () =>
      api<OutOfServicePlan>('/planner/out_of_service', {
        query: { calendar: range.calendar, from: range.from, to: range.to },
      }),
    retry: false,
  });

/** Takes the seat out of service: its bookings moved or cancelled, the range blacked out. */
export function useTakeOutOfService(onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OutOfService) =>
      api<OutOfServiceResult>('/planner/out_of_service', { method: 'POST', body }),
    onSuccess: (result) => {
      showAlert(result.detail, 'success', 5_000);
      onDone();
    },
    onError: (error) => showAlert(checkoutErrorMessage(error), 'danger'),
    onSettled: () => client.invalidateQueries({ queryKey: ['planner'] }),
  });
}

/** The desk's price of booking these times for this customer, before booking. */
export const bookQuoteQuery = (body: PlannerBookQuote | null) =>
  queryOptions({
    queryKey: ['desk_book_quote', body],
    queryFn: () => api<PlannerBookPrice>('/planner/book/quote', { method: 'POST', body: body! }),
    enabled: body !== null,
    retry: false,
  });

/** What a walk-in now costs (the desk's one price, from the server), before the payment tap. */
export const walkInQuoteQuery = (body: WalkInQuoteRequest | null) =>
  queryOptions({
    queryKey: ['walk_in_quote', body],
    queryFn: () =>
      api<PlannerBookPrice>('/planner/walk_in/quote', { method: 'POST', body: body! }),
    enabled: body !== null,
    retry: false,
  });

/** What a move does with the money: the customer's own move's quote (one rule for both). */
export const moveQuoteQuery = (
  reservation: number,
  to: { calendar: number; slot: string } | null,
) =>
  queryOptions({
    queryKey: ['desk_move_quote', reservation, to],
    queryFn: () =>
      api<MoveQuote>(`/reservations/${reservation}/move_quote`, {
        query: { calendar: to!.calendar, slot: to!.slot },
      }),
    enabled: to !== null,
    retry: false,
  });

/** What Delete Reservations would give back, booking by booking, before staff confirm. */
export const deleteQuoteQuery = (reservations: number[], refund: PlannerDeleteQuote['refund']) =>
  queryOptions({
    queryKey: ['desk_delete_quote', reservations, refund],
    queryFn: () =>
      api<PlannerRefundQuote>('/planner/delete/quote', {
        method: 'POST',
        body: { reservations, refund },
      }),
    retry: false,
  });
