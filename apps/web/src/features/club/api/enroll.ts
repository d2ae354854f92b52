import type { CreditsEnrollResponse } from '@paddock/contract/club';
import { api } from '../../../lib/api-client';

/** `POST /api/users/me/charges/credits_enroll {credits_amount}`: charges the first month. */
export function enrollInClub(creditsAmount: number) {
  return api<CreditsEnrollResponse>('/users/me/charges/credits_enroll', {
    method: 'POST',
    body: { credits_amount: creditsAmount },
  });
}
