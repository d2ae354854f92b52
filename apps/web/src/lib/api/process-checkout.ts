import type { ProcessResponse } from '@paddock/contract/checkout';
import { api } from '../api-client';

/**
 * `POST /api/reservations/checkouts/{id}/process`: books and charges. Repeating it (a retry
 * after a timeout) replays the first answer, so it never charges twice.
 */
export function processCheckout(checkoutId: number) {
  return api<ProcessResponse>(`/reservations/checkouts/${checkoutId}/process`, {
    method: 'POST',
  });
}
