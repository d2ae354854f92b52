import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CancelResponse } from '@paddock/contract/refunds';
import { api } from '../../../lib/api-client';

/** `POST /api/reservations/{id}/cancel` for each slot of a dashboard entry, one after another. */
export function useCancelReservations() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      const answers: CancelResponse[] = [];
      for (const id of ids)
        answers.push(
          await api<CancelResponse>(`/reservations/${id}/cancel`, { method: 'POST', body: {} }),
        );
      return answers;
    },
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ['reservations'] }),
        client.invalidateQueries({ queryKey: ['users'] }),
        client.invalidateQueries({ queryKey: ['subscriptions'] }),
      ]);
    },
  });
}
