import type { QuoteRequest, QuoteResponse } from '@paddock/contract/checkout';
import { api } from '../api-client';

/** `POST /api/reservations/checkouts/quote`: prices the chosen seat-slots; holds nothing. */
export function quoteCheckout(body: QuoteRequest) {
  return api<QuoteResponse>('/reservations/checkouts/quote', { method: 'POST', body });
}
