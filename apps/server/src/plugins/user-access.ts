import { eq } from 'drizzle-orm';
import type { Permission } from '@paddock/contract/accounts';
import type { Db } from '../db/client';
import { users } from '../db/schema/accounts';
import { hasPermission, type AuthUser } from './auth';
import { NotFound } from './errors';

/**
 * The user whose data `/users/{id}/…` means: one's own (`me` or one's id), or another user's
 * for staff holding one of `permissions`. A superuser's card and details are a superuser's
 * business only. Anyone else gets the 404 an unknown id gets, so ids cannot be probed.
 */
export async function accessibleUserId(
  db: Db,
  caller: AuthUser,
  ref: 'me' | number,
  permissions: Permission[],
): Promise<number> {
  const userId = ref === 'me' ? caller.id : ref;
  if (userId === caller.id) return userId;
  if (!permissions.some((p) => hasPermission(caller, p))) throw new NotFound();
  const [row] = await db
    .select({ isSuperuser: users.isSuperuser })
    .from(users)
    .where(eq(users.id, userId));
  if (!row || (row.isSuperuser && !caller.isSuperuser)) throw new NotFound();
  return userId;
}

/** Whether `caller` may see a user who is (or is not) a superuser. */
export const maySeeUser = (caller: AuthUser, target: { id: number; isSuperuser: boolean }) =>
  target.id === caller.id || !target.isSuperuser || caller.isSuperuser;
