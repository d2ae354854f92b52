import type { DeletionPreview } from '@paddock/contract/my-data';
import { api } from '../api-client';

/**
 * `GET /api/users/{id}/deletion_preview`: what deleting the account would do, said before it
 * is done (decision 0124): the customer's own Delete my account and staff's Delete User.
 */
export function deletionPreviewQuery(userId: number | 'me') {
  return {
    queryKey: ['users', userId, 'deletion_preview'] as const,
    queryFn: () => api<DeletionPreview>(`/users/${userId}/deletion_preview`),
    // What comes back changes with the clock (the free window): asked fresh each time it opens.
    staleTime: 0,
    gcTime: 0,
  };
}
