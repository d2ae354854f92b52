import { queryOptions } from '@tanstack/react-query';
import type { CancelQuote } from '@paddock/contract/refunds';
import { api } from '../../../lib/api-client';

/** `GET /api/reservations/{id}/cancel_quote`: what cancelling now gives back, and how. */
export function cancelQuoteQuery(id: number) {
  return queryOptions({
    queryKey: ['reservations', id, 'cancel_quote'],
    queryFn: ({ signal }) => api<CancelQuote>(`/reservations/${id}/cancel_quote`, { signal }),
    // The free window closes as time passes: always ask again when the dialog opens.
    staleTime: 0,
    gcTime: 0,
  });
}
