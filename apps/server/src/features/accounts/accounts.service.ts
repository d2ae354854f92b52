import {
  BAD_CREDENTIALS_MESSAGE,
  CURRENT_PASSWORD_MISSING,
  CURRENT_PASSWORD_WRONG,
  FORGOT_PASSWORD_MESSAGE,
  LOGIN_LINK_REQUIRED,
  LOGIN_PROTECTED_MESSAGE,
  PASSWORD_UPDATED_MESSAGE,
  PERMISSIONS,
  TOKEN_NOT_VALID,
  USER_EXISTS_MESSAGE,
  loginLinkSentMessage,
  type PermissionsResponse,
  type SignupRequest,
  type TokenRequest,
  type TokenResponse,
  type UpdatePasswordRequest,
  type User,
  type UserListQuery,
  type UserUpdate,
} from '@paddock/contract/accounts';
import type { Paginated } from '@paddock/contract/common';
import { sql } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import type { AuthUser } from '../../plugins/auth';
import { TooManyRequests, type AbuseLimits } from '../../plugins/abuse-limits';
import { hasPermission } from '../../plugins/auth';
import {
  Forbidden,
  HttpError,
  NotFound,
  Unauthorized,
  ValidationError,
} from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import { hashPassword, randomPassword, verifyPassword } from '../../lib/passwords';
import * as repo from './accounts.repo';
import {
  CHANGE_PASSWORD_PATH,
  consumeLoginLink,
  mailLoginLink,
  mailLoginLinkOncePerWindow,
  PASSWORD_RESET_MINUTES,
  type LoginLinkDeps,
} from './login-links';
import { billingOf } from './user-billing';
import { toUserView, type UserRow } from './user-view';
import { maySeeUser } from '../../plugins/user-access';
import { isUniqueViolation, pgError } from '../../lib/pg-errors';
import type { PaymentProvider } from '../../plugins/payments/provider';
import { recordAudit } from '../audit/audit.service';

/** The changed fields before and after, for the audit trail; secrets are never kept. */
function auditedFields(before: UserRow, after: UserRow, keys: string[]) {
  const kept = keys.filter((k) => k !== 'passwordHash' && k !== 'sessionVersion');
  const pick = (row: UserRow) =>
    Object.fromEntries(kept.map((k) => [k, row[k as keyof UserRow] ?? null]));
  return {
    before: pick(before),
    after: { ...pick(after), ...(keys.includes('passwordHash') ? { password: 'changed' } : {}) },
  };
}

export type AccountsContext = LoginLinkDeps & {
  /** Deleting a user detaches their card at the provider. */
  payments: PaymentProvider;
  /** Failures of mail sent in the background (forgot password) are logged, not shown. */
  logError: (error: unknown, message: string) => void;
};

type UserId = number | 'me';

async function view(ctx: AccountsContext, row: UserRow): Promise<User> {
  const billing = await billingOf(ctx.db, [row.id]);
  return toUserView(row, billing.get(row.id)!);
}

async function startSession(
  ctx: AccountsContext,
  userId: number,
  endOthers = false,
  passwordResetUntil?: number,
): Promise<TokenResponse> {
  const row = await repo.touchLastLogin(ctx.db, userId, endOthers);
  if (!row) throw new Unauthorized(BAD_CREDENTIALS_MESSAGE);
  const access = await ctx.tokens.sign(userId, row.sessionVersion, undefined, passwordResetUntil);
  return { access, user: await view(ctx, row) };
}

/** Called when a change ended every session of `userId` (now at `version`). */
export type SessionsEnded = (userId: number, version: number) => Promise<void>;

// Verifying against a throwaway hash when the login is unknown keeps the answer time the same,
// so timing does not tell which usernames exist.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword(randomPassword()));

export async function login(ctx: AccountsContext, body: TokenRequest): Promise<TokenResponse> {
  const row = await repo.findUserByLogin(ctx.db, body.username);
  if (!row) {
    await verifyPassword(await decoy(), body.password);
    throw new Unauthorized(BAD_CREDENTIALS_MESSAGE);
  }
  const valid = await verifyPassword(row.passwordHash, body.password);
  if (!valid || !row.isActive) throw new Unauthorized(BAD_CREDENTIALS_MESSAGE);
  return startSession(ctx, row.id);
}

/** The one answer to a password for an account under a guessing attack (decision 0073). */
export class LoginLinkRequired extends HttpError {
  constructor() {
    super(403, LOGIN_PROTECTED_MESSAGE, LOGIN_LINK_REQUIRED);
  }
}

/**
 * A password for an account past its failed-login limit. The answer is the same whether it was
 * right or not, so the attacker's guesses stop telling them anything; a right one mails the owner
 * a login link (their mailbox is the second factor the attacker lacks), at most once per window.
 */
export async function loginToProtectedAccount(
  ctx: AccountsContext,
  limits: AbuseLimits,
  body: TokenRequest,
): Promise<never> {
  const row = await repo.findUserByLogin(ctx.db, body.username);
  const valid = await verifyPassword(row?.passwordHash ?? (await decoy()), body.password);
  if (row && valid && row.isActive && row.email) {
    // Not awaited: the answer must not take longer when the password was right.
    mailLoginLinkOncePerWindow(ctx, limits, row, 'login_protected', '/dashboard').catch(
      (error: unknown) => ctx.logError(error, 'protected-login mail failed'),
    );
  }
  throw new LoginLinkRequired();
}

export async function exchangeLoginLink(
  ctx: AccountsContext,
  token: string,
): Promise<TokenResponse> {
  const userId = await consumeLoginLink(ctx, token);
  const row = await repo.findUserById(ctx.db, userId);
  if (!row?.isActive) throw new Unauthorized('Token is invalid or expired', TOKEN_NOT_VALID);
  // Whoever holds the mailbox holds the account: sessions opened before the link are over. The
  // link is the reset by mail: for a while this session sets a password without the old one.
  const resetUntil = Math.floor(Date.now() / 1000) + PASSWORD_RESET_MINUTES * 60;
  return startSession(ctx, userId, true, resetUntil);
}

export function permissionsOf(caller: AuthUser): PermissionsResponse {
  const permissions = caller.isSuperuser
    ? [...PERMISSIONS]
    : [...caller.permissions].filter((p) => (PERMISSIONS as readonly string[]).includes(p));
  return {
    is_staff: caller.isStaff,
    is_superuser: caller.isSuperuser,
    permissions: permissions.sort(),
  };
}

/** Signup step 0: creates the account and logs in; an existing e-mail gets a login link instead. */
export async function signup(
  ctx: AccountsContext,
  body: SignupRequest,
  limits: AbuseLimits,
): Promise<TokenResponse> {
  const username = body.username ?? body.email;
  const existing = await repo.findUserByEmailOrUsername(ctx.db, body.email, username);
  if (existing) return refuseExisting(ctx, limits, existing, body.redirect);
  if (body.location != null) await requireLocation(ctx, body.location);
  let row: UserRow;
  try {
    row = await repo.insertUser(ctx.db, {
      username,
      email: body.email,
      passwordHash: await hashPassword(body.password),
      locationId: body.location ?? null,
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Lost a race with a signup of the same address: same answer as if it existed before.
    const winner = await repo.findUserByEmailOrUsername(ctx.db, body.email, username);
    if (!winner) throw error;
    return refuseExisting(ctx, limits, winner, body.redirect);
  }
  return startSession(ctx, row.id);
}

async function refuseExisting(
  ctx: AccountsContext,
  limits: AbuseLimits,
  existing: UserRow,
  redirect: string | undefined,
): Promise<never> {
  if (existing.email && existing.isActive)
    await mailLoginLinkOncePerWindow(
      ctx,
      limits,
      existing,
      'signup_exists',
      redirect ?? '/dashboard',
    );
  throw ValidationError.field('username', USER_EXISTS_MESSAGE);
}

/** Always the same answer, so the form tells nobody which addresses have accounts. */
export async function forgotPassword(
  ctx: AccountsContext,
  limits: AbuseLimits,
  email: string,
): Promise<string> {
  const row = await repo.findUserByEmail(ctx.db, email);
  if (row?.isActive) {
    // Not awaited: a slow mail server must not make known addresses answer slower.
    mailLoginLinkOncePerWindow(ctx, limits, row, 'forgot_password', CHANGE_PASSWORD_PATH).catch(
      (error: unknown) => ctx.logError(error, 'forgot-password mail failed'),
    );
  }
  return FORGOT_PASSWORD_MESSAGE;
}

// --- Reading and changing users -------------------------------------------------------------

const canReadOthers = (caller: AuthUser) =>
  hasPermission(caller, 'user.view_user') ||
  hasPermission(caller, 'user.change_user') ||
  hasPermission(caller, 'reservations.change_reservation');
const canChangeOthers = (caller: AuthUser) => hasPermission(caller, 'user.change_user');

/**
 * The target of a `/users/{id}` call. Someone who may not read other users gets a 404 for every
 * other id, so ids of existing accounts are not revealed.
 */
async function target(ctx: AccountsContext, caller: AuthUser, id: UserId): Promise<UserRow> {
  const targetId = id === 'me' ? caller.id : id;
  if (targetId !== caller.id && !canReadOthers(caller)) throw new NotFound();
  const row = await repo.findUserById(ctx.db, targetId);
  // Only a superuser reads or changes a superuser; a deleted user is gone for everyone.
  if (!row || row.deletedAt || !maySeeUser(caller, row)) throw new NotFound();
  return row;
}

/** Changing someone else needs user.change_user; staff accounts can only be changed by a superuser. */
function assertMayChange(caller: AuthUser, row: UserRow) {
  if (row.id === caller.id) return;
  if (!canChangeOthers(caller)) throw new Forbidden();
  if ((row.isStaff || row.isSuperuser) && !caller.isSuperuser)
    throw new Forbidden('Only a superuser can change a staff or superuser account.');
}

/**
 * What the caller brings to a change of their own password or e-mail besides the body: their
 * session's reset allowance (a login-link session, decision 0113) and the limits that bound
 * guesses of the current password.
 */
export type SelfChangeProof = { passwordResetUntil?: number; limits: AbuseLimits };

/** Wrong current passwords per account: a stolen session cannot guess the password for long. */
const CURRENT_PASSWORD_GUESSES = { max: 10, seconds: 15 * 60 };

/**
 * Changing one's own password or e-mail asks for the current password (decision 0113), so a
 * session left open or stolen cannot take the account over (a new e-mail gets the reset links).
 * Not asked: of staff changing someone else (user.change_user, within `assertMayChange`), of an
 * account whose password was never chosen by its owner (signup step 1, invitations, desk
 * accounts), and, for the password only, of a session opened by a login link while its reset
 * allowance lasts (the reset by mail: the mailbox already proved who it is).
 */
async function confirmCurrentPassword(
  caller: AuthUser,
  row: UserRow,
  change: 'password' | 'email',
  given: string | undefined,
  proof: SelfChangeProof,
): Promise<void> {
  if (caller.id !== row.id || !row.isOnboarded) return;
  const resetUntil = proof.passwordResetUntil ?? 0;
  if (change === 'password' && resetUntil * 1000 > Date.now()) return;
  if (!given) throw ValidationError.field('current_password', CURRENT_PASSWORD_MISSING);
  const guesses = { key: `current-password:user:${row.id}`, ...CURRENT_PASSWORD_GUESSES };
  const state = await proof.limits.exceeded(guesses);
  if (state.exceeded) throw new TooManyRequests(state.retryAfterSeconds);
  if (await verifyPassword(row.passwordHash, given)) return;
  await proof.limits.hit(guesses);
  throw ValidationError.field('current_password', CURRENT_PASSWORD_WRONG);
}

export async function getUser(ctx: AccountsContext, caller: AuthUser, id: UserId): Promise<User> {
  return view(ctx, await target(ctx, caller, id));
}

export async function listUsers(
  ctx: AccountsContext,
  caller: AuthUser,
  query: UserListQuery,
): Promise<Paginated<User>> {
  const words = (query.search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 6);
  const search = { words, withSuperusers: caller.isSuperuser };
  const page = await paginate(
    query,
    () => repo.countUsers(ctx.db, search),
    (limit, offset) => repo.listUsers(ctx.db, search, limit, offset),
  );
  const billing = await billingOf(
    ctx.db,
    page.results.map((r) => r.id),
  );
  return { ...page, results: page.results.map((r) => toUserView(r, billing.get(r.id)!)) };
}

export async function updateUser(
  ctx: AccountsContext,
  caller: AuthUser,
  id: UserId,
  body: UserUpdate,
  proof: SelfChangeProof,
  sessionsEnded?: SessionsEnded,
): Promise<User> {
  const row = await target(ctx, caller, id);
  assertMayChange(caller, row);
  const newEmail = body.email !== undefined && body.email !== row.email;
  if (body.password !== undefined || newEmail)
    await confirmCurrentPassword(
      caller,
      row,
      newEmail ? 'email' : 'password',
      body.current_password,
      proof,
    );

  const errors: Record<string, string[]> = {};
  if (body.username !== undefined && (await repo.usernameTaken(ctx.db, body.username, row.id)))
    errors.username = [USER_EXISTS_MESSAGE];
  if (body.email !== undefined && (await repo.emailTaken(ctx.db, body.email, row.id)))
    errors.email = ['A user with that email already exists.'];
  if (body.location != null && !(await repo.locationExists(ctx.db, body.location)))
    errors.location = [`Invalid pk "${body.location}" - object does not exist.`];
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const changes: Parameters<typeof repo.updateUser>[2] = {
    firstName: body.first_name,
    lastName: body.last_name,
    contactPhone: body.contact_phone,
    zipCode: body.zip_code,
    racerName: body.racer_name,
    flagCode: body.flag_code,
    socialInstagram: body.social_instagram,
    simGuid: body.sim_guid === undefined ? undefined : body.sim_guid || null,
    visitReminders: body.visit_reminders,
    locationId: body.location,
    email: body.email,
    username: body.username,
  };
  // Signup makes the username the e-mail; keep them together when only the e-mail changes.
  const usernameFollowsEmail =
    body.email !== undefined &&
    body.username === undefined &&
    row.username.toLowerCase() === row.email.toLowerCase();
  if (usernameFollowsEmail) {
    if (await repo.usernameTaken(ctx.db, body.email!, row.id))
      throw ValidationError.field('email', 'A user with that email already exists.');
    changes.username = body.email;
  }
  if (body.password !== undefined) {
    changes.passwordHash = await hashPassword(body.password);
    changes.isOnboarded = true;
    changes.sessionVersion = sql`${users.sessionVersion} + 1`;
  }
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  let updated: UserRow;
  try {
    updated = await ctx.db.transaction(async (tx) => {
      const saved = await repo.updateUser(tx, row.id, defined);
      // Staff changing someone else's account: kept in the audit trail (never the password).
      if (caller.id !== row.id && Object.keys(defined).length > 0)
        await recordAudit(tx, caller, {
          action: 'user.update',
          targetType: 'user',
          targetId: row.id,
          subjectUserId: row.id,
          ...auditedFields(row, saved, Object.keys(defined)),
        });
      return saved;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw uniqueError(error);
    throw error;
  }
  if (body.password !== undefined) {
    await repo.revokeLoginTokens(ctx.db, row.id);
    await sessionsEnded?.(row.id, updated.sessionVersion);
  }
  return view(ctx, updated);
}

export async function updatePassword(
  ctx: AccountsContext,
  caller: AuthUser,
  id: UserId,
  body: UpdatePasswordRequest,
  proof: SelfChangeProof,
  sessionsEnded?: SessionsEnded,
): Promise<string> {
  const row = await target(ctx, caller, id);
  assertMayChange(caller, row);
  await confirmCurrentPassword(caller, row, 'password', body.current_password, proof);
  const updated = await repo.updateUser(ctx.db, row.id, {
    passwordHash: await hashPassword(body.new_password),
    isOnboarded: true,
    sessionVersion: sql`${users.sessionVersion} + 1`,
  });
  await repo.revokeLoginTokens(ctx.db, row.id);
  await sessionsEnded?.(row.id, updated.sessionVersion);
  return PASSWORD_UPDATED_MESSAGE;
}

export async function sendLoginLink(
  ctx: AccountsContext,
  caller: AuthUser,
  id: UserId,
): Promise<string> {
  const row = await target(ctx, caller, id);
  if (!canChangeOthers(caller)) throw new Forbidden();
  if (row.isStaff || row.isSuperuser)
    throw ValidationError.nonField('Login links cannot be sent to staff or superuser accounts.');
  if (!row.email) throw ValidationError.nonField('This user has no e-mail address.');
  if (!row.isActive) throw ValidationError.nonField('This account is disabled.');
  await mailLoginLink(ctx, row, 'staff', CHANGE_PASSWORD_PATH);
  await recordAudit(ctx.db, caller, {
    action: 'user.send_login_link',
    targetType: 'user',
    targetId: row.id,
    subjectUserId: row.id,
    after: { email: row.email },
  });
  return loginLinkSentMessage(row.email);
}

async function requireLocation(ctx: AccountsContext, id: number) {
  if (!(await repo.locationExists(ctx.db, id)))
    throw ValidationError.field('location', `Invalid pk "${id}" - object does not exist.`);
}

function uniqueError(error: unknown) {
  const constraint = pgError(error).constraint;
  if (constraint === 'users_sim_guid')
    return ValidationError.field('sim_guid', 'This sim id is linked to another racer.');
  return constraint === 'users_email_lower'
    ? ValidationError.field('email', 'A user with that email already exists.')
    : ValidationError.field('username', USER_EXISTS_MESSAGE);
}
