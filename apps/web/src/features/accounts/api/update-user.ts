import type { User, UserUpdate } from '@paddock/contract/accounts';
import { api } from '../../../lib/api-client';

/** `PATCH /api/users/{id}`. */
export function updateUser(userId: number, body: UserUpdate) {
  return api<User>(`/users/${userId}`, { method: 'PATCH', body });
}
