import crypto from 'node:crypto';
import { TOKEN_NOT_VALID } from '@paddock/contract/accounts';
import type { Db } from '../../db/client';
import type { Mailer } from '../../plugins/mail';
import type { Tokens } from '../../plugins/auth';
import { Unauthorized } from '../../plugins/errors';
import { getSettings } from '../../plugins/settings';
import { consumeLoginToken, insertLoginToken } from './accounts.repo';
import { displayName, type UserRow } from './user-view';
import { sha256Hex } from '../../lib/hash';
import escapeHtml from 'escape-html';
import type { AbuseLimits } from '../../plugins/abuse-limits';

/** Short: a link sits in a mailbox, and whoever opens it is logged in. */
export const LOGIN_LINK_TTL_MINUTES = 30;
export const CHANGE_PASSWORD_PATH = '/profile/password/change';
/**
 * How long a session opened by a login link may set a new password without the current one
 * (the reset by mail; decision 0113): long enough to choose one, short enough that a session
 * left open on a shared computer loses the allowance soon.
 */
export const PASSWORD_RESET_MINUTES = 30;
const LINK_NOT_VALID = 'Token is invalid or expired';

export type LoginLinkDeps = { db: Db; tokens: Tokens; mailer: Mailer; publicUrl: string };

/** Why the link is mailed: decides the wording. */
export type LoginLinkReason =
  | 'signup_exists'
  | 'forgot_password'
  | 'login_protected'
  | 'staff'
  | 'staff_invite'
  | 'desk_signup';

const hashJti = sha256Hex;

/**
 * Self-service login-link mails (forgot password, signup with a known address, a login to a
 * protected account): one per account per window, counted in PostgreSQL so every instance
 * agrees, whichever path and address asked (decision 0073). The link already sent stays good.
 */
export const LINK_MAIL_WINDOW_SECONDS = 5 * 60;

/** Mails `user` a login link unless one went out in this window; true when it did. */
export async function mailLoginLinkOncePerWindow(
  deps: LoginLinkDeps,
  limits: AbuseLimits,
  user: UserRow,
  reason: LoginLinkReason,
  redirect: string,
): Promise<boolean> {
  const { allowed } = await limits.hit({
    key: `link-mail:user:${user.id}`,
    max: 1,
    seconds: LINK_MAIL_WINDOW_SECONDS,
  });
  if (allowed) await mailLoginLink(deps, user, reason, redirect);
  return allowed;
}

/** Makes a one-time link `${PUBLIC_URL}/login?token=…&redirect=…`; only the jti's hash is kept. */
export async function createLoginLink(
  deps: LoginLinkDeps,
  userId: number,
  redirect: string,
): Promise<string> {
  const jti = crypto.randomBytes(32).toString('base64url');
  const ttl = LOGIN_LINK_TTL_MINUTES * 60;
  const token = await deps.tokens.signLoginLink(userId, jti, ttl);
  await insertLoginToken(deps.db, {
    userId,
    tokenHash: hashJti(jti),
    expiresAt: new Date(Date.now() + ttl * 1000),
  });
  const query = new URLSearchParams({ token, redirect });
  return `${deps.publicUrl}/login?${query.toString()}`;
}

/** The user id of a live link, which is used up by this call. */
export async function consumeLoginLink(deps: LoginLinkDeps, token: string): Promise<number> {
  const { userId, jti } = await deps.tokens.verifyLoginLink(token);
  const live = await consumeLoginToken(deps.db, hashJti(jti), userId);
  if (!live) throw new Unauthorized(LINK_NOT_VALID, TOKEN_NOT_VALID);
  return userId;
}

/** Mails `user` a fresh login link; the caller has checked that the user has an e-mail. */
export async function mailLoginLink(
  deps: LoginLinkDeps,
  user: UserRow,
  reason: LoginLinkReason,
  redirect: string,
): Promise<void> {
  const url = await createLoginLink(deps, user.id, redirect);
  const { company_name: company } = await getSettings(deps.db);
  const name = displayName(user);
  const { subject, lead } = wording(reason, company);
  const expiry = `The link works once and expires in ${LOGIN_LINK_TTL_MINUTES} minutes.`;
  const ignore = 'If you did not ask for this, you can ignore this e-mail.';
  await deps.mailer.send({
    to: user.email,
    subject,
    text: `Hello ${name},\n\n${lead}\n\n${url}\n\n${expiry}\n${ignore}\n\n${company}\n`,
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>${escapeHtml(lead)}</p>`,
      `<p><a href="${escapeHtml(url)}">Log in to ${escapeHtml(company)}</a></p>`,
      `<p>${escapeHtml(expiry)}<br>${escapeHtml(ignore)}</p>`,
      `<p>${escapeHtml(company)}</p>`,
    ].join('\n'),
  });
}

function wording(reason: LoginLinkReason, company: string) {
  switch (reason) {
    case 'forgot_password':
      return {
        subject: `Reset your ${company} password`,
        lead: 'We received a request to reset your password. This link logs you in and takes you to choose a new password:',
      };
    case 'signup_exists':
      return {
        subject: `Your ${company} login link`,
        lead: 'Someone tried to create an account with this e-mail address, which already has one. Use this link to log in:',
      };
    case 'login_protected':
      return {
        subject: `Your ${company} login link`,
        lead: 'Someone entered your correct password while your account was protected after many failed login attempts, so we send a link instead. If that was you, use this link to log in. If it was not you, log in with the link and change your password:',
      };
    case 'staff':
      return {
        subject: `Your ${company} login link`,
        lead: 'Our staff sent you a link to log in. It takes you to choose a new password:',
      };
    case 'desk_signup':
      return {
        subject: `Your ${company} account`,
        lead: 'We created an account for you at the desk. This link logs you in and takes you to choose a password, so you can book online next time:',
      };
    case 'staff_invite':
      return {
        subject: `You are invited to the ${company} staff`,
        lead: 'You have been added to the staff. This link logs you in and takes you to choose a password:',
      };
  }
}
