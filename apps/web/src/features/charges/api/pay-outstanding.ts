import {
  OUTSTANDING_PAID_MESSAGE,
  type CaptureOutstandingAnswer,
  type CaptureOutstandingResponse,
} from '@paddock/contract/reservations';
import { runChallenge } from '../../../components/payment-method/challenge';
import { api } from '../../../lib/api-client';

/** `POST /api/users/me/charges/capture_outstanding`: the saved card pays what is owed. */
export function payOutstanding() {
  return api<CaptureOutstandingAnswer>('/users/me/charges/capture_outstanding', {
    method: 'POST',
  });
}

/**
 * Pays the balance with the customer present (decision 0099): a bank that asks runs its
 * challenge (the local provider's page leaves for it and comes back to the dashboard, which
 * calls `finishOutstanding`), then the same call answers how it ended.
 */
export async function payOutstandingPresent(): Promise<CaptureOutstandingResponse> {
  const answer = await payOutstanding();
  if (!('status' in answer)) return answer;
  await runChallenge(answer);
  return finishOutstanding();
}

/** After the challenge: paid (by this call or, first, by the webhook), or one message. */
export async function finishOutstanding(): Promise<CaptureOutstandingResponse> {
  const answer = await payOutstanding();
  if ('status' in answer) throw new Error('The authentication is not complete yet.');
  // Nothing left: the webhook finished the payment before the customer came back.
  return answer.amount_cents === 0 ? { ...answer, detail: OUTSTANDING_PAID_MESSAGE } : answer;
}
