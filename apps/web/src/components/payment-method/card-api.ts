import { queryOptions } from '@tanstack/react-query';
import type {
  Card,
  LocalTokenResponse,
  SaveCardResponse,
  SavedCard,
} from '@paddock/contract/cards';
import { runChallenge } from './challenge';
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

/**
 * `POST /api/users/{id}/card {token}`: saves (or replaces) the card through a SetupIntent. When
 * the bank asks for 3-D Secure the challenge runs first (Stripe: over the page, then the setup
 * is sent back here; local: the browser goes to its page and `useCardSetupReturn` finishes).
 */
export async function saveCard(userId: number, token: string): Promise<Card> {
  const saved = await api<SaveCardResponse>(`/users/${userId}/card`, {
    method: 'POST',
    body: { token, return_url: window.location.href },
  });
  if (!('status' in saved)) return saved;
  await runChallenge(saved);
  return finishCardSetup(userId, saved.setup_intent);
}

/** `POST /api/users/{id}/card {setup_intent}`: saves the card once its challenge passed. */
export function finishCardSetup(userId: number | 'me', setupIntent: string) {
  return api<Card>(`/users/${userId}/card`, {
    method: 'POST',
    body: { setup_intent: setupIntent },
  });
}
