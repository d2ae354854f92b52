import { api } from '../../../lib/api-client';

/**
 * `DELETE /api/users/{id}`: removes the customer's personal data, card and sessions and cancels
 * the subscription; charges and paid reservations stay under an anonymous placeholder.
 */
export function deleteUser(userId: number) {
  return api<void>(`/users/${userId}`, { method: 'DELETE' });
}
