import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WaitlistRequest } from '@paddock/contract/refunds';
import { api } from '../../../lib/api-client';

/** `POST /api/waitlist`: tell me when a seat frees up at this location and time. */
export function useJoinWaitlist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WaitlistRequest) =>
      api<{ id: number; position: number }>('/waitlist', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['waitlist'] }),
  });
}
