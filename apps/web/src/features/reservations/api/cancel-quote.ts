import { queryOptions } from '@tanstack/react-query';
import type { CancelQuote } from '@paddock/contract/refunds';
import { api } from '../../../lib/api-client';

/** `GET /api/reservations/{id}/cancel_quote`: what cancelling now gives back, and how. */
export function cancelQuoteQuery(id: number) {
  return queryOptions({
    // Not under ['reservations']: cancelling refreshes those, and a cancelled booking has no quote.
    queryKey: ['cancel_quote', id],
    queryFn: ({ signal }) => api<CancelQuote>(`/reservations/${id}/cancel_quote`, { signal }),
    // The free window closes as time passes: always ask again when the dialog opens.
    staleTime: 0,
    gcTime: 0,
  });
}
