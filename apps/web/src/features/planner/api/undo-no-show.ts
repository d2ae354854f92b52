import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';

/**
 * Undoes Mark No-show for each booking (issue 41, decision 0116): back to attended-unknown. The
 * server refuses one whose no-show gave money back, in words, and the others still go back.
 */
export function useUndoNoShow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      const failures: unknown[] = [];
      for (const id of ids) {
        try {
          await api<{ detail: string }>(`/reservations/${id}/no_show/undo`, { method: 'POST' });
        } catch (error) {
          failures.push(error);
        }
      }
      return { undone: ids.length - failures.length, failures };
    },
    onSuccess: ({ undone, failures }) => {
      if (undone > 0) showAlert('No-show undone.', 'success', 5_000);
      for (const error of failures) showError(error);
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['planner'] }),
  });
}
