import { z } from 'zod';
import { idNumber, paginationQuery, userRef } from './common';

export const RACER_NAME_MAX = 24;
export const PASSWORD_MIN = 8;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Staff powers in the spec's `app.verb_model` form. The spec's three come first; the rest give
 * each other staff power its own string (decision 0013). A superuser has them all; holders of
 * user.change_staff grant or revoke only those they hold themselves (decision 0073).
 */
export const PERMISSIONS = [
  'reservations.change_reservation',
  'user.change_user',
  'leaderboards.can_manage_race_events',
  'user.view_user',
  'user.change_staff',
  'vouchers.add_voucher',
  'vouchers.view_voucher',
  'vouchers.change_voucher',
  'locations.change_location',
  'calendars.change_calendar',
  'venue.change_settings',
  'pages.change_page',
  'outbox.view_message',
  'leaderboards.change_board',
  'laps.change_lap',
  'rigs.change_rig',
  'reports.view_report',
  'screens.change_screen',
  'audit.view_event',
  'images.add_image',
] as const;
export const permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof permission>;

export const emailField = z
  .string()
  .trim()
  .max(254)
  .regex(EMAIL_PATTERN, 'Enter a valid email address.');
const email = emailField;
const shortText = (max: number) => z.string().trim().max(max);

/** A user as the API returns it (spec customer §3 and staff §3). */
export const user = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  location: z.number().int().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  contact_phone: z.string(),
  zip_code: z.string(),
  racer_name: z.string(),
  flag_code: z.string(),
  flag_url: z.string(),
  social_instagram: z.string(),
  /** The racer's simulator id (Steam GUID) that laps and results from sim servers carry. */
  sim_guid: z.string().nullable(),
  /** An e-mail before each visit (issue 45, decision 0119); the customer may turn it off. */
  visit_reminders: z.boolean(),
  display_name: z.string(),
  is_onboarded: z.boolean(),
  is_staff: z.boolean(),
  is_superuser: z.boolean(),
  credits_subscription_exists: z.boolean(),
  credits_subscription_in_good_standing: z.boolean(),
  credits_subscription_cancelable: z.boolean(),
  credits_balance: z.number().int(),
  credits_recurring: z.number().int(),
  credits_recurring_cents: z.number().int(),
  credits_cycle_day_of_month: z.number().int().nullable(),
  customer_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
});
export type User = z.infer<typeof user>;

/**
 * The caller's own password, asked when they change their own password or e-mail (decision 0113);
 * staff changing someone else's account do not send it.
 */
const currentPassword = z.string().max(128);
export const CURRENT_PASSWORD_MISSING = 'Enter your current password.';
export const CURRENT_PASSWORD_WRONG = 'Your current password is not correct.';

/** Fields a user (or staff with user.change_user) may edit. */
export const userUpdate = z
  .object({
    username: shortText(150).min(1),
    email,
    password: z
      .string()
      .min(PASSWORD_MIN, 'Password must be 8 characters or greater in length')
      .max(128),
    location: idNumber.nullable(),
    first_name: shortText(150),
    last_name: shortText(150),
    contact_phone: shortText(32),
    zip_code: shortText(16),
    racer_name: shortText(RACER_NAME_MAX),
    flag_code: z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => v === '' || /^[a-z]{2}$/.test(v), 'Enter a two-letter country code.'),
    social_instagram: shortText(64),
    sim_guid: z
      .string()
      .trim()
      .max(64)
      .refine((v) => v === '' || /^[A-Za-z0-9_:-]+$/.test(v), 'Enter the id as the sim shows it.')
      .nullable(),
    visit_reminders: z.boolean(),
    /** Needed with a new `email` or `password` of one's own account (decision 0113). */
    current_password: currentPassword,
  })
  .partial()
  .strict();
export type UserUpdate = z.infer<typeof userUpdate>;

/** A path inside this site ("/dashboard"), never another host ("//evil.example"). */
export const localPath = z
  .string()
  .trim()
  .max(500)
  .regex(/^\/(?![/\\])/, 'Enter a path that starts with /.');

/** Signup step 0: the client sends the e-mail and a random 20-character password. */
export const signupRequest = z
  .object({
    email,
    username: shortText(150).min(1).optional(),
    password: z.string().min(PASSWORD_MIN).max(128),
    location: idNumber.nullable().optional(),
    /** Where a login link goes when the e-mail already has an account. */
    redirect: localPath.optional(),
  })
  .strict();
export type SignupRequest = z.infer<typeof signupRequest>;

export const tokenRequest = z
  .object({ username: z.string().trim().min(1).max(254), password: z.string().min(1).max(128) })
  .strict();
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenResponse = z.object({ access: z.string(), user });

export const BAD_CREDENTIALS_MESSAGE = 'No active account found with the given credentials';
export const USER_EXISTS_MESSAGE = 'A user with that username already exists.';
/** The `code` of a 401 for an invalid, expired or used token (session or login link). */
export const TOKEN_NOT_VALID = 'token_not_valid';
/**
 * The answer to every password for an account under a guessing attack (decision 0073): the same
 * whether the password was right or not; when it was, the owner finds a login link in their mail.
 */
export const LOGIN_LINK_REQUIRED = 'login_link_required';
export const LOGIN_PROTECTED_MESSAGE =
  'This account is protected for a while after too many failed logins. If your password was right, we have e-mailed you a login link: open it to log in.';

/** Exchange of a one-time login link (`/login?token=…`) for a session token. */
export const loginLinkRequest = z.object({ token: z.string().trim().min(1).max(2000) }).strict();
export type LoginLinkRequest = z.infer<typeof loginLinkRequest>;
export type TokenResponse = z.infer<typeof tokenResponse>;

/** What a staff manager sets on an account: staff or not, and its permission strings. */
export const permissionsUpdate = z
  .object({ is_staff: z.boolean(), permissions: z.array(permission).max(50) })
  .strict();
export type PermissionsUpdate = z.infer<typeof permissionsUpdate>;

export const permissionsResponse = z.object({
  is_staff: z.boolean(),
  is_superuser: z.boolean(),
  permissions: z.array(z.string()),
});
export type PermissionsResponse = z.infer<typeof permissionsResponse>;

export const updatePasswordRequest = z
  .object({
    new_password: z
      .string()
      .min(PASSWORD_MIN, 'Password must be 8 characters or greater in length')
      .max(128),
    /**
     * Needed for one's own password (decision 0113), except right after a login link (the reset
     * by mail) and before the account's first chosen password.
     */
    current_password: currentPassword.optional(),
  })
  .strict();
export type UpdatePasswordRequest = z.infer<typeof updatePasswordRequest>;

export const forgotPasswordRequest = z.object({ email }).strict();
export const FORGOT_PASSWORD_MESSAGE =
  "If there is an account attached to this email address, we'll send you a new login";

export const userSearchQuery = z.object({ search: z.string().max(200).optional() });
export const userListQuery = paginationQuery.extend(userSearchQuery.shape);
export type UserListQuery = z.infer<typeof userListQuery>;

/** `/users/{id}`: a number, or `me` for the signed-in user. */
export const userIdParam = z.object({
  id: userRef,
});

export const PASSWORD_UPDATED_MESSAGE = 'Password updated';
export const loginLinkSentMessage = (email: string) => `Sent login link to ${email}`;

/** Token payload of a session JWT. */
export const tokenPayload = z.object({
  user_id: z.number().int(),
  exp: z.number(),
  /**
   * On a session opened by a login link: until when (seconds since the epoch) it may set a new
   * password without the current one, as the reset by mail does (decision 0113).
   */
  password_reset_until: z.number().optional(),
});
export type TokenPayload = z.infer<typeof tokenPayload>;
