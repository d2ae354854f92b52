import { z } from 'zod';
import { emailField, user } from './accounts';

export const EMAIL_OR_PHONE_MESSAGE = 'Enter an e-mail address or a phone number.';
export const PHONE_MESSAGE = 'Enter a phone number with at least 7 digits.';
export const PHONE_TAKEN_MESSAGE = 'A customer with this phone number already has an account.';
export const EMAIL_TAKEN_MESSAGE = 'A user with that email already exists.';

/** The digits of a phone number (a leading + kept): the unique key of a phone-only account. */
export function phoneKey(phone: string): string {
  const trimmed = phone.trim();
  return (trimmed.startsWith('+') ? '+' : '') + trimmed.replace(/\D/g, '');
}

/**
 * A walk-in created at the desk (issue 30): a name, and an e-mail or a phone; nothing else.
 * `send_login_link` mails the e-mail a set-password link (only with an e-mail).
 */
export const deskCustomerRequest = z
  .object({
    first_name: z.string().trim().min(1, 'Enter the first name.').max(150),
    last_name: z.string().trim().max(150).default(''),
    email: z.union([z.literal(''), emailField]).default(''),
    contact_phone: z
      .string()
      .trim()
      .max(32)
      .refine((p) => p === '' || phoneKey(p).replace('+', '').length >= 7, PHONE_MESSAGE)
      .default(''),
    send_login_link: z.boolean().default(false),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (!body.email && !body.contact_phone)
      ctx.addIssue({ code: 'custom', path: ['email'], message: EMAIL_OR_PHONE_MESSAGE });
    if (body.send_login_link && !body.email)
      ctx.addIssue({
        code: 'custom',
        path: ['send_login_link'],
        message: 'A login link needs an e-mail address.',
      });
  });
export type DeskCustomerRequest = z.input<typeof deskCustomerRequest>;

export const deskCustomerResponse = z.object({ user, detail: z.string() });
export type DeskCustomerResponse = z.infer<typeof deskCustomerResponse>;

export const deskCustomerCreatedMessage = (name: string, mailedTo: string | null) =>
  mailedTo
    ? `Created ${name}. We e-mailed ${mailedTo} a link to set a password.`
    : `Created ${name}.`;
