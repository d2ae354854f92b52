import { z } from 'zod';
import { emailField, permission } from './accounts';
import { permissionLabel } from './permission-labels';

/** One member of staff, as the staff list shows them. */
export const staffMember = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  is_superuser: z.boolean(),
  permissions: z.array(z.string()),
  last_login: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMember>;
export const staffList = z.object({ results: z.array(staffMember) });
export type StaffList = z.infer<typeof staffList>;

/** Invite someone to the staff by e-mail: their account (made if new) and a login link. */
export const staffInvite = z
  .object({
    email: emailField,
    first_name: z.string().trim().max(150).optional(),
    last_name: z.string().trim().max(150).optional(),
    permissions: z.array(permission).max(50),
  })
  .strict();
export type StaffInvite = z.infer<typeof staffInvite>;

/** Superusers make or unmake superusers; the last one stays. */
export const superuserUpdate = z.object({ is_superuser: z.boolean() }).strict();
export type SuperuserUpdate = z.infer<typeof superuserUpdate>;

export const STAFF_EXISTS_MESSAGE = 'This person is on the staff already.';
export const LAST_SUPERUSER_MESSAGE = 'The last superuser cannot be demoted.';
export const staffInvitedMessage = (email: string) =>
  `Invited ${email}: a login link is on its way.`;

/** Who is granting: a superuser, or staff holding these permission strings. */
export type Grantor = { is_superuser: boolean; permissions: readonly string[] };

/**
 * The permissions that a change from `before` to `after` grants or revokes but the grantor does
 * not hold (decision 0073). Non-empty means refused: staff pass on, or take away, only powers
 * they hold themselves, so no second account can be used to climb past them.
 */
export function changesNotHeld(
  grantor: Grantor,
  before: readonly string[],
  after: readonly string[],
): string[] {
  if (grantor.is_superuser) return [];
  const changed = [
    ...after.filter((p) => !before.includes(p)),
    ...before.filter((p) => !after.includes(p)),
  ];
  return [...new Set(changed)].filter((p) => !grantor.permissions.includes(p)).sort();
}

export const NOT_YOURS_TO_GRANT =
  'You do not hold this permission, so you cannot grant or revoke it.';
/** Shown to staff as it is (the web's error alert): the permissions in words, not as codes. */
export const grantRefusedMessage = (permissions: readonly string[]) =>
  `You can only grant or revoke permissions you hold yourself; not yours: ${permissions.map(permissionLabel).join('; ')}.`;
export const NO_PERMISSIONS_OFF_STAFF = 'Someone who is not on the staff holds no permissions.';
