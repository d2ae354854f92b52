import { api } from '../../../lib/api-client';

/** `POST /api/users/{id}/update_password`. */
export function updatePassword(userId: number, newPassword: string) {
  return api<{ detail?: string }>(`/users/${userId}/update_password`, {
    method: 'POST',
    body: { new_password: newPassword },
  });
}

/** `POST /api/users/forgot_password`, sent without the auth header (spec §7). */
export function forgotPassword(email: string) {
  return api<{ detail?: string }>('/users/forgot_password', {
    method: 'POST',
    body: { email },
    auth: false,
  });
}
