import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import {
  LAST_SUPERUSER_MESSAGE,
  STAFF_EXISTS_MESSAGE,
  staffInvitedMessage,
  type StaffInvite,
  type StaffMember,
} from '@paddock/contract/staff';
import type { Db } from '../../db/client';
import { userPermissions, users } from '../../db/schema/accounts';
import type { AuthUser } from '../../plugins/auth';
import { Forbidden, NotFound, ValidationError } from '../../plugins/errors';
import { hashPassword, randomPassword } from '../../lib/passwords';
import { isUniqueViolation } from '../../lib/pg-errors';
import { recordAudit } from '../audit/audit.service';
import { CHANGE_PASSWORD_PATH, mailLoginLink, type LoginLinkDeps } from './login-links';
import { findUserById } from './accounts.repo';
import { assertMayGrant, standingChangeAudit } from './permission-grants';

/** Everyone on the staff (superusers included) and what each may do, by name. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      first_name: users.firstName,
      last_name: users.lastName,
      is_superuser: users.isSuperuser,
      last_login: users.lastLogin,
      permissions: sql<
        string[]
      >`coalesce(array_agg(${userPermissions.permission} order by ${userPermissions.permission}) filter (where ${userPermissions.permission} is not null), '{}')`,
    })
    .from(users)
    .leftJoin(userPermissions, eq(userPermissions.userId, users.id))
    .where(and(or(users.isStaff, users.isSuperuser), isNull(users.deletedAt)))
    .groupBy(users.id)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  return rows.map((r) => ({ ...r, last_login: r.last_login?.toISOString() ?? null }));
}

/**
 * Puts someone on the staff with these permissions and mails them a login link (through the
 * outbox, like every mail): an existing customer account is promoted, a new address gets an
 * account with a random password, which the link lets them replace.
 */
export async function inviteStaff(
  deps: LoginLinkDeps,
  caller: AuthUser,
  body: StaffInvite,
): Promise<string> {
  const email = body.email.toLowerCase();
  const permissions = [...new Set(body.permissions)].sort();
  const userId = await deps.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, isStaff: users.isStaff, isSuperuser: users.isSuperuser })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deletedAt)))
      .for('update');
    if (existing?.isStaff || existing?.isSuperuser)
      throw ValidationError.field('email', STAFF_EXISTS_MESSAGE);
    const held = existing
      ? (
          await tx
            .select({ permission: userPermissions.permission })
            .from(userPermissions)
            .where(eq(userPermissions.userId, existing.id))
        ).map((r) => r.permission)
      : [];
    const after = [...new Set([...held, ...permissions])].sort();
    // An invitation is a grant like any other: only what the inviter holds (decision 0073).
    assertMayGrant(caller, held, after);
    let id = existing?.id;
    if (id === undefined) {
      try {
        [{ id }] = await tx
          .insert(users)
          .values({
            username: email,
            email,
            passwordHash: await hashPassword(randomPassword(32)),
            isStaff: true,
            firstName: body.first_name ?? '',
            lastName: body.last_name ?? '',
          })
          .returning({ id: users.id });
      } catch (error) {
        // A username taken by another account (usernames need not be e-mails).
        if (isUniqueViolation(error)) throw ValidationError.field('email', STAFF_EXISTS_MESSAGE);
        throw error;
      }
    } else await tx.update(users).set({ isStaff: true }).where(eq(users.id, id));
    if (permissions.length)
      await tx
        .insert(userPermissions)
        .values(permissions.map((permission) => ({ userId: id!, permission })))
        .onConflictDoNothing();
    await recordAudit(tx, caller, [
      {
        action: 'staff.invite',
        targetType: 'user',
        targetId: id,
        subjectUserId: id,
        after: { email, permissions },
      },
      ...standingChangeAudit(
        id!,
        { isStaff: false, permissions: held },
        { isStaff: true, permissions: after },
      ),
    ]);
    return id!;
  });
  const row = await findUserById(deps.db, userId);
  if (!row) throw new NotFound();
  await mailLoginLink(deps, row, 'staff_invite', CHANGE_PASSWORD_PATH);
  return staffInvitedMessage(email);
}

/**
 * Makes or unmakes a superuser (superusers only). The superusers are locked while one is
 * demoted, so two demoting each other at once cannot leave the venue with none.
 */
export async function setSuperuser(
  db: Db,
  caller: AuthUser,
  id: number,
  isSuperuser: boolean,
): Promise<StaffMember> {
  if (!caller.isSuperuser) throw new Forbidden();
  await db.transaction(async (tx) => {
    const supers = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.isSuperuser, true), isNull(users.deletedAt)))
      .orderBy(asc(users.id))
      .for('update');
    const [target] = await tx
      .select({ id: users.id, isSuperuser: users.isSuperuser, isStaff: users.isStaff })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt)));
    if (!target) throw new NotFound();
    if (target.isSuperuser === isSuperuser) return;
    if (!isSuperuser && supers.length <= 1)
      throw ValidationError.field('is_superuser', LAST_SUPERUSER_MESSAGE);
    await tx.update(users).set({ isSuperuser, isStaff: true }).where(eq(users.id, id));
    // A customer made superuser joins the staff too: that is its own act in the trail.
    const joined = standingChangeAudit(
      id,
      { isStaff: target.isStaff, permissions: [] },
      { isStaff: true, permissions: [] },
    );
    await recordAudit(tx, caller, [
      ...joined,
      {
        action: isSuperuser ? 'staff.make_superuser' : 'staff.demote_superuser',
        targetType: 'user',
        targetId: id,
        subjectUserId: id,
        before: { is_superuser: !isSuperuser },
        after: { is_superuser: isSuperuser },
      },
    ]);
  });
  const member = (await listStaff(db)).find((m) => m.id === id);
  if (!member) throw new NotFound();
  return member;
}
