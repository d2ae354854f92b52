import { z } from 'zod';
import { EMAIL_PATTERN, PASSWORD_MIN, RACER_NAME_MAX } from '@paddock/contract/accounts';

// Form rules of spec customer §5; limits come from the contract so they are written once.
export const PASSWORD_HINT = 'Password must be 8 characters or greater in length';
export const PASSWORDS_MUST_MATCH = 'Passwords must match';
export const PHONE_INVALID = 'Enter a phone number with at least 10 digits';
export const EMAIL_INVALID = 'Enter a valid email address';

/** Phone rule: after stripping all but digits and '+', longer than 9 characters. */
export function isValidPhone(phone: string): boolean {
  return phone.replace(/[^\d+]/g, '').length > 9;
}

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

const required = (label: string) => z.string().trim().min(1, `${label} is required`);

export const emailSchema = z.object({
  email: z.string().trim().regex(EMAIL_PATTERN, EMAIL_INVALID),
});
export type EmailForm = z.infer<typeof emailSchema>;

export const loginSchema = z.object({
  username: z.string().trim().min(1, 'Enter your email or username'),
  password: z.string().min(1, 'Enter your password'),
});
export type LoginForm = z.infer<typeof loginSchema>;

const passwordPair = {
  password: z.string().min(PASSWORD_MIN, PASSWORD_HINT),
  password_confirm: z.string(),
};
function passwordsMatch(
  value: { password: string; password_confirm: string },
  ctx: z.RefinementCtx,
) {
  if (value.password !== value.password_confirm) {
    ctx.addIssue({ code: 'custom', path: ['password_confirm'], message: PASSWORDS_MUST_MATCH });
  }
}

export const changePasswordSchema = z
  .object({
    /** Asked when it is one's own chosen password (decision 0113); '' when not shown. */
    current_password: z.string(),
    password: z.string().min(1, 'Enter a new password').min(PASSWORD_MIN, PASSWORD_HINT),
    password_confirm: z.string(),
  })
  .superRefine(passwordsMatch);
export type ChangePasswordForm = z.infer<typeof changePasswordSchema>;

const profileFields = {
  first_name: required('First name').max(150),
  last_name: required('Last name').max(150),
  zip_code: required('Zip code').max(16),
  contact_phone: z.string().trim().max(32).refine(isValidPhone, PHONE_INVALID),
  racer_name: z
    .string()
    .trim()
    .max(RACER_NAME_MAX, `Racer name must be ${RACER_NAME_MAX} characters or fewer`),
  /** A location id as the select's text; '' for none. */
  location: z.string(),
};

/** Signup step 1: the real password and the details. */
export const signupDetailsSchema = z
  .object({ ...passwordPair, ...profileFields })
  .superRefine(passwordsMatch);
export type SignupDetailsForm = z.infer<typeof signupDetailsSchema>;

/** The profile edit form (dashboard, /profile). */
export const profileSchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(150),
  email: z.string().trim().regex(EMAIL_PATTERN, EMAIL_INVALID),
  ...profileFields,
  flag_code: z.string(),
  social_instagram: z.string().trim().max(64),
  sim_guid: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_:-]*$/, 'Enter the id as the sim shows it.'),
  /** An e-mail before each visit (decision 0119). */
  visit_reminders: z.boolean(),
  /** Asked when someone changes their own e-mail (decision 0113); '' otherwise. */
  current_password: z.string(),
});
export type ProfileForm = z.infer<typeof profileSchema>;

export function locationValue(value: string): number | null {
  return value ? Number(value) : null;
}
