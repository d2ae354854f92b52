import { z } from 'zod';
import { emailField, permission } from './accounts';

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
