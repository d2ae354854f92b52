import type { UpdatePasswordRequest } from '@paddock/contract/accounts';
import { api } from '../../../lib/api-client';

/** `POST /api/users/{id}/update_password`; one's own needs the current password (0113). */
export function updatePassword(userId: number, newPassword: string, currentPassword?: string) {
  const body: UpdatePasswordRequest = { new_password: newPassword };
  if (currentPassword) body.current_password = currentPassword;
  return api<{ detail?: string }>(`/users/${userId}/update_password`, { method: 'POST', body });
}

/** `POST /api/users/forgot_password`, sent without the auth header (spec §7). */
export function forgotPassword(email: string) {
  return api<{ detail?: string }>('/users/forgot_password', {
    method: 'POST',
    body: { email },
    auth: false,
  });
}
