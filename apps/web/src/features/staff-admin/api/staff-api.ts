import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PermissionsUpdate } from '@paddock/contract/accounts';
import type { StaffInvite, StaffList, StaffMember } from '@paddock/contract/staff';
import { api } from '../../../lib/api-client';

const KEY = ['staff'];

/** `GET /api/staff`: everyone on the staff and their permissions. */
export const useStaffList = () =>
  useQuery({ queryKey: KEY, queryFn: () => api<StaffList>('/staff') });

const useRefreshing = <T, R>(fn: (value: T) => Promise<R>) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
};

/** `POST /api/staff/invite`. */
export const useInviteStaff = () =>
  useRefreshing((body: StaffInvite) =>
    api<{ detail: string }>('/staff/invite', { method: 'POST', body }),
  );

/** `PUT /api/users/{id}/permissions`: grant, revoke, or take off the staff. */
export const useSetPermissions = () =>
  useRefreshing(({ id, ...body }: PermissionsUpdate & { id: number }) =>
    api(`/users/${id}/permissions`, { method: 'PUT', body }),
  );

/** `PUT /api/staff/{id}/superuser` (superusers only). */
export const useSetSuperuser = () =>
  useRefreshing(({ id, is_superuser }: { id: number; is_superuser: boolean }) =>
    api<StaffMember>(`/staff/${id}/superuser`, { method: 'PUT', body: { is_superuser } }),
  );
