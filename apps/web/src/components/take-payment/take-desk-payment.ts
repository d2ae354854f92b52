import type { DeskPaymentRequest, DeskPaymentResponse } from '@paddock/contract/desk-payments';
import { api } from '../../lib/api-client';

/** `POST /api/users/{id}/desk_payments`: money taken at the desk toward the balance (0083). */
export function takeDeskPayment(userId: number, body: DeskPaymentRequest) {
  return api<DeskPaymentResponse>(`/users/${userId}/desk_payments`, {
    method: 'POST',
    body,
  });
}

/**
 * One key per opened dialog, so a double click or a retry records the payment once. Made with
 * getRandomValues, which (unlike randomUUID) also works on a venue's plain-http address.
 */
export function newPaymentKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `desk-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
