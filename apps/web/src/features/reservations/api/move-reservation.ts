import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoveQuote, MoveRequest, MoveResponse } from '@paddock/contract/refunds';
import { api } from '../../../lib/api-client';

/** `GET /api/reservations/{id}/move_quote`: what moving there does with the money. */
export function moveQuoteQuery(id: number, to: MoveRequest | null) {
  return queryOptions({
    queryKey: ['move_quote', id, to],
    queryFn: ({ signal }) =>
      api<MoveQuote>(`/reservations/${id}/move_quote`, {
        query: { calendar: to!.calendar, slot: to!.slot },
        signal,
      }),
    enabled: to !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/**
 * `POST /api/reservations/{id}/move` for each half-hour of a dashboard entry, in an order that
 * never lands on a slot the entry itself still holds.
 */
export function useMoveReservations() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (moves: { id: number; to: MoveRequest }[]) => {
      const answers: MoveResponse[] = [];
      for (const { id, to } of moves)
        answers.push(
          await api<MoveResponse>(`/reservations/${id}/move`, { method: 'POST', body: to }),
        );
      return answers;
    },
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ['reservations'] }),
        client.invalidateQueries({ queryKey: ['avail'] }),
        client.invalidateQueries({ queryKey: ['users'] }),
      ]);
    },
  });
}
