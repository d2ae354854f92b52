import { api } from '../../../lib/api-client';

/** `POST /api/users/{id}/send_login_link`: mails the user a one-time login link. */
export function sendLoginLink(userId: number) {
  return api<{ detail: string }>(`/users/${userId}/send_login_link`, { method: 'POST' });
}
