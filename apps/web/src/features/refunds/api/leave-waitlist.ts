import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** `DELETE /api/waitlist/{id}`: leave one of your own waitlist entries. */
export function useLeaveWaitlist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/waitlist/${id}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: ['waitlist'] }),
  });
}
