import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CreditsQuote } from '@paddock/contract/club';
import { api } from '../../../lib/api-client';

/** `GET /api/users/me/charges/credits_purchase_quote?credits=N` (DESIGN §3). */
export function creditsQuoteQuery(credits: number) {
  return queryOptions({
    queryKey: ['users', 'me', 'credits-quote', credits],
    queryFn: ({ signal }) =>
      api<CreditsQuote>('/users/me/charges/credits_purchase_quote', {
        query: { credits },
        signal,
      }),
    staleTime: 5 * 60_000,
  });
}

/** The quote for `credits`, keeping the last one on screen while the next loads. */
export function useCreditsQuote(credits: number, enabled = true) {
  return useQuery({ ...creditsQuoteQuery(credits), enabled, placeholderData: keepPreviousData });
}
