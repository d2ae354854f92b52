import { eq } from 'drizzle-orm';
import type { PermissionsResponse, PermissionsUpdate } from '@paddock/contract/accounts';
import type { Db } from '../../db/client';
import { userPermissions, users } from '../../db/schema/accounts';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import { accessibleUserId } from '../../plugins/user-access';

/**
 * Makes an account staff (or not) with exactly these permission strings; holders of
 * user.change_staff do it (superusers hold every permission). A superuser's rights are not
 * set here (they hold all), and nobody changes their own: another manager does.
 */
export async function setPermissions(
  db: Db,
  caller: AuthUser,
  id: number,
  body: PermissionsUpdate,
): Promise<PermissionsResponse> {
  const userId = await accessibleUserId(db, caller, id, ['user.change_staff']);
  if (userId === caller.id)
    throw ValidationError.nonField('Your own permissions are changed by another manager.');
  const [target] = await db
    .select({ isSuperuser: users.isSuperuser })
    .from(users)
    .where(eq(users.id, userId));
  if (target.isSuperuser)
    throw ValidationError.nonField('A superuser holds every permission already.');
  const permissions = [...new Set(body.permissions)].sort();
  await db.transaction(async (tx) => {
    await tx.update(users).set({ isStaff: body.is_staff }).where(eq(users.id, userId));
    await tx.delete(userPermissions).where(eq(userPermissions.userId, userId));
    if (permissions.length)
      await tx
        .insert(userPermissions)
        .values(permissions.map((permission) => ({ userId, permission })));
  });
  return { is_staff: body.is_staff, is_superuser: false, permissions };
}
