import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoveQuote, MoveRequest, MoveResponse } from '@paddock/contract/refunds';
import { api } from '../../../lib/api-client';

/** `GET /api/reservations/{id}/move_quote`: what moving there does with the money. */
export function moveQuoteQuery(id: number, to: MoveRequest | null) {
  return queryOptions({
    queryKey: ['move_quote', id, to],
    queryFn: ({ signal }) =>
      api<MoveQuote>(`/reservations/${id}/move_quote`, {
        query: { calendar: to!.calendar, slot: to!.slot, ...(to!.run ? { run: 'true' } : {}) },
        signal,
      }),
    enabled: to !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/**
 * `POST /api/reservations/{id}/move`: a dashboard entry of several half-hours moves as one run
 * (`run`), all of it or none, so a seat type's minimum (VR: 2 hours) holds (decision 0112).
 */
export function useMoveReservations() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to }: { id: number; to: MoveRequest }) =>
      api<MoveResponse>(`/reservations/${id}/move`, { method: 'POST', body: to }),
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ['reservations'] }),
        client.invalidateQueries({ queryKey: ['avail'] }),
        client.invalidateQueries({ queryKey: ['users'] }),
      ]);
    },
  });
}
