import type { CreditsEnrollResponse } from '@paddock/contract/club';
import { api } from '../../../lib/api-client';

/**
 * `POST /api/users/{id}/charges/credits_enroll {credits_amount}`: charges the first month to
 * that user's card. `me` for oneself; another id for staff with user.change_user.
 */
export function enrollInClub(creditsAmount: number, userId: number | 'me' = 'me') {
  return api<CreditsEnrollResponse>(`/users/${userId}/charges/credits_enroll`, {
    method: 'POST',
    body: { credits_amount: creditsAmount },
  });
}
