import { changesNotHeld, grantRefusedMessage } from '@paddock/contract/staff';
import type { AuthUser } from '../../plugins/auth';
import { Forbidden } from '../../plugins/errors';
import type { AuditEntry } from '../audit/audit.service';

/** A 403 naming the permissions the caller would grant or revoke without holding them. */
export function assertMayGrant(
  caller: AuthUser,
  before: readonly string[],
  after: readonly string[],
) {
  const grantor = { is_superuser: caller.isSuperuser, permissions: [...caller.permissions] };
  const notHeld = changesNotHeld(grantor, before, after);
  if (notHeld.length) throw new Forbidden(grantRefusedMessage(notHeld));
}

export type StaffStanding = { isStaff: boolean; permissions: readonly string[] };

/**
 * The audit rows of a change of standing, one act per row: made staff or taken off it, then each
 * permission granted or revoked, so the trail reads as what happened and each grant has its own
 * line to filter on.
 */
export function standingChangeAudit(
  userId: number,
  before: StaffStanding,
  after: StaffStanding,
): AuditEntry[] {
  const about = { targetType: 'user', targetId: userId, subjectUserId: userId };
  const rows: AuditEntry[] = [];
  if (!before.isStaff && after.isStaff)
    rows.push({
      ...about,
      action: 'staff.make_staff',
      before: { is_staff: false },
      after: { is_staff: true },
    });
  for (const permission of after.permissions.filter((p) => !before.permissions.includes(p)))
    rows.push({ ...about, action: 'staff.grant_permission', after: { permission } });
  for (const permission of before.permissions.filter((p) => !after.permissions.includes(p)))
    rows.push({ ...about, action: 'staff.revoke_permission', before: { permission } });
  if (before.isStaff && !after.isStaff)
    rows.push({
      ...about,
      action: 'staff.remove_staff',
      before: { is_staff: true },
      after: { is_staff: false },
    });
  return rows;
}
