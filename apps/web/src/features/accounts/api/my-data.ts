import { api } from '../../../lib/api-client';

/** `POST /api/users/me/delete_account`, confirmed by the current password. */
export function deleteMyAccount(currentPassword: string) {
  return api<{ detail: string }>('/users/me/delete_account', {
    method: 'POST',
    body: { current_password: currentPassword },
  });
}
