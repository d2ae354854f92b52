import type { CreditsEnrollAnswer, CreditsEnrollResponse } from '@paddock/contract/club';
import { runChallenge } from '../../../components/payment-method/challenge';
import { api } from '../../../lib/api-client';

/**
 * `POST /api/users/{id}/charges/credits_enroll {credits_amount}`: charges the first month to
 * that user's card. `me` for oneself; another id for staff with user.change_user. A bank asking
 * for 3-D Secure (decision 0095): its challenge, then the same call finishes the enrolment (the
 * local provider's page leaves for `/subscriptions/{id}/authenticated` instead).
 */
export async function enrollInClub(
  creditsAmount: number,
  userId: number | 'me' = 'me',
): Promise<CreditsEnrollResponse> {
  const enroll = () =>
    api<CreditsEnrollAnswer>(`/users/${userId}/charges/credits_enroll`, {
      method: 'POST',
      body: { credits_amount: creditsAmount },
    });
  const answer = await enroll();
  if (!('status' in answer)) return answer;
  await runChallenge(answer);
  const joined = await enroll();
  if ('status' in joined) throw new Error('The authentication is not complete yet.');
  return joined;
}

/** `POST /api/users/me/subscriptions/{id}/complete`: the enrolment after its challenge. */
export function completeEnrolment(membershipId: number) {
  return api<CreditsEnrollAnswer>(`/users/me/subscriptions/${membershipId}/complete`, {
    method: 'POST',
  });
}
