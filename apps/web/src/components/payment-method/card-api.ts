import { queryOptions } from '@tanstack/react-query';
import type { Card, LocalTokenResponse, SavedCard } from '@paddock/contract/cards';
import { api } from '../../lib/api-client';

/** `GET /api/users/{id}/card`; `{}` means no card, returned here as null. */
export function cardQuery(userId: number) {
  return queryOptions({
    queryKey: ['users', userId, 'card'],
    queryFn: async (): Promise<SavedCard | null> => {
      const card = await api<Card>(`/users/${userId}/card`);
      return 'last4' in card ? (card as SavedCard) : null;
    },
  });
}

export type LocalCardInput = {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  postal_code?: string;
};

/** The local provider's tokenization (DESIGN §3), shaped like Stripe's. */
export function createLocalToken(input: LocalCardInput) {
  return api<LocalTokenResponse>('/payments/local/tokens', { method: 'POST', body: input });
}

/** `POST /api/users/{id}/card {token}`: saves (or replaces) the card. */
export function saveCard(userId: number, token: string) {
  return api<Card>(`/users/${userId}/card`, { method: 'POST', body: { token } });
}
