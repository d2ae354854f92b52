import type { CaptureOutstandingResponse } from '@paddock/contract/reservations';
import { api } from '../../../lib/api-client';

/** `POST /api/users/me/charges/capture_outstanding`: the saved card pays what is owed. */
export function payOutstanding() {
  return api<CaptureOutstandingResponse>('/users/me/charges/capture_outstanding', {
    method: 'POST',
  });
}
