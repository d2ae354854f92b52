import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RigMap, RigMove, RigMoveResult } from '@paddock/contract/rig-map';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';

/** `GET /rig_map?location=`: every seat of the location as a tile (decision 0127). */
export const rigMapQuery = (location: number | null) =>
  queryOptions({
    queryKey: ['rig-map', location],
    queryFn: () => api<RigMap>('/rig_map', { query: { location: location ?? undefined } }),
    // A session ends or starts on the clock with nothing changed on the server: read again
    // every minute besides every change the feed announces.
    refetchInterval: 60_000,
  });

/** `POST /rig_map/move`: the customer in session goes to another seat for the rest of their time. */
export function useMoveSession(onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RigMove) => api<RigMoveResult>('/rig_map/move', { method: 'POST', body }),
    onSuccess: (result) => {
      showAlert(result.detail, 'success');
      void client.invalidateQueries({ queryKey: ['rig-map'] });
      onDone();
    },
    onError: (error) => showError(error),
  });
}
