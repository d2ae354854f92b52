import type { CreditsUnenrollAnswer, CreditsUnenrollResponse } from '@paddock/contract/club';
import { runChallenge } from '../../../components/payment-method/challenge';
import { api } from '../../../lib/api-client';

/** `POST /api/users/me/charges/credits_unenroll`: cancels, charging back early discounts. */
export function unenrollFromClub() {
  return api<CreditsUnenrollAnswer>('/users/me/charges/credits_unenroll', { method: 'POST' });
}

/**
 * Cancels with the member present (decision 0100): a bank asking for 3-D Secure for the
 * charge-back runs its challenge (the local provider's page leaves for it and comes back to the
 * dashboard, which calls `finishUnenrol`), then the same call answers how it ended.
 */
export async function unenrollPresent(): Promise<CreditsUnenrollResponse> {
  const answer = await unenrollFromClub();
  if (!('status' in answer)) return answer;
  await runChallenge(answer);
  return finishUnenrol();
}

/** After the challenge: cancelled (by this call or, first, by the webhook), or one message. */
export async function finishUnenrol(): Promise<CreditsUnenrollResponse> {
  const answer = await unenrollFromClub();
  if ('status' in answer) throw new Error('The authentication is not complete yet.');
  return answer;
}
