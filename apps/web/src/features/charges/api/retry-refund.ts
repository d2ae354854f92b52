import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CancelResponse } from '@paddock/contract/refunds';
import { api } from '../../../lib/api-client';

/** `POST /api/refunds/{id}/retry` (staff): send a declined card refund again. */
export function useRetryRefund() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api<CancelResponse>(`/refunds/${id}/retry`, { method: 'POST', body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: ['users'] }),
  });
}
