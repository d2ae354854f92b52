import { eq } from 'drizzle-orm';
import type { PermissionsResponse, PermissionsUpdate } from '@paddock/contract/accounts';
import { NO_PERMISSIONS_OFF_STAFF } from '@paddock/contract/staff';
import type { Db } from '../../db/client';
import { userPermissions, users } from '../../db/schema/accounts';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import { accessibleUserId } from '../../plugins/user-access';
import { recordAudit } from '../audit/audit.service';
import { assertMayGrant, standingChangeAudit } from './permission-grants';

/**
 * Makes an account staff (or not) with exactly these permission strings; holders of
 * user.change_staff do it (superusers hold every permission). A superuser's rights are not
 * set here (they hold all), nobody changes their own (another manager does), and staff grant or
 * revoke only permissions they hold (decision 0073). Each act is its own audit row.
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
  const permissions = [...new Set(body.permissions)].sort();
  if (!body.is_staff && permissions.length)
    throw ValidationError.field('permissions', NO_PERMISSIONS_OFF_STAFF);
  await db.transaction(async (tx) => {
    // Locked, so two managers changing one account see each other's result, not a stale one.
    const [target] = await tx
      .select({ isSuperuser: users.isSuperuser, isStaff: users.isStaff })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (target.isSuperuser)
      throw ValidationError.nonField('A superuser holds every permission already.');
    const held = (
      await tx
        .select({ permission: userPermissions.permission })
        .from(userPermissions)
        .where(eq(userPermissions.userId, userId))
    ).map((r) => r.permission);
    assertMayGrant(caller, held, permissions);
    await tx.update(users).set({ isStaff: body.is_staff }).where(eq(users.id, userId));
    await tx.delete(userPermissions).where(eq(userPermissions.userId, userId));
    if (permissions.length)
      await tx
        .insert(userPermissions)
        .values(permissions.map((permission) => ({ userId, permission })));
    await recordAudit(
      tx,
      caller,
      standingChangeAudit(
        userId,
        { isStaff: target.isStaff, permissions: held },
        { isStaff: body.is_staff, permissions },
      ),
    );
  });
  return { is_staff: body.is_staff, is_superuser: false, permissions };
}
