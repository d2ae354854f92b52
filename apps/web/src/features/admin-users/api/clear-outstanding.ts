import { api } from '../../../lib/api-client';

/** `POST /api/users/{id}/clear_outstanding`: marks everything owed as paid (no charge). */
export function clearOutstanding(userId: number) {
  return api<{ detail: string }>(`/users/${userId}/clear_outstanding`, { method: 'POST' });
}
