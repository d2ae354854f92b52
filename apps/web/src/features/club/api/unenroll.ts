import type { CreditsUnenrollResponse } from '@paddock/contract/club';
import { api } from '../../../lib/api-client';

/** `POST /api/users/me/charges/credits_unenroll`: cancels, charging back early discounts. */
export function unenrollFromClub() {
  return api<CreditsUnenrollResponse>('/users/me/charges/credits_unenroll', { method: 'POST' });
}
