import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { Permission } from '@paddock/contract/accounts';
import { PERMISSIONS, TOKEN_NOT_VALID } from '@paddock/contract/accounts';
import { INT_MAX } from '@paddock/contract/common';
import type { Db } from '../db/client';
import { preparedPer } from '../db/prepared';
import { userPermissions, users } from '../db/schema/accounts';
import { revokedSessions } from '../db/schema/security';
import { Forbidden, Unauthorized } from './errors';
import { LRUCache } from 'lru-cache';
import type { SessionCache } from './session-cache';
import type { AuthUser, SessionClaims } from './auth-user';

// Kept importable from here, where every caller already looks for them.
export type { AuthUser, SessionClaims };

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
    /** The session token's claims, when the request carried one (logout uses its jti). */
    authSession: SessionClaims | null;
    /**
     * Resolves once this instance has heard every change announced before the request (false
     * when the change feed is down): what a cache checks before answering from memory.
     */
    changesHeard(): Promise<boolean>;
    /** The request's barrier once asked for (`changesHeard`). */
    heard: Promise<boolean> | null;
  }
}

const TOKEN_INVALID = 'Given token not valid for any token type';
/** The `typ` claim of a session token; tokens made for anything else are refused as sessions. */
const SESSION_TYPE = 'session';
const LOGIN_LINK_TYPE = 'login_link';
/** Clock skew allowed between instances when checking how far ahead `exp` lies. */
const SKEW_SECONDS = 60;

/** Bound on remembered verified tokens; past it the least recently used are forgotten. */
const VERIFIED_TOKENS = 10_000;

export class Tokens {
  private readonly key: Uint8Array;
  private readonly verified = new LRUCache<string, SessionClaims>({ max: VERIFIED_TOKENS });
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * A session token `{typ, user_id, ver, jti, iat, exp}` for the user's current version; a
   * session opened by a login link also carries `password_reset_until` (decision 0113).
   */
  async sign(
    userId: number,
    version: number,
    ttlSeconds = this.ttlSeconds,
    passwordResetUntil?: number,
  ): Promise<string> {
    const resetClaim =
      passwordResetUntil === undefined ? {} : { password_reset_until: passwordResetUntil };
    return new SignJWT({ typ: SESSION_TYPE, user_id: userId, ver: version, ...resetClaim })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setJti(crypto.randomBytes(16).toString('base64url'))
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /**
   * A session token's claims. A token's signature and claims never change, so a token already
   * verified here is only re-checked for expiry (jose's rule: exp must be after the current
   * second). Whether the session is still live (version, logout) is the caller's check.
   */
  async verify(token: string): Promise<SessionClaims> {
    const now = Math.floor(Date.now() / 1000);
    const known = this.verified.get(token);
    if (known && known.exp > now) return known;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const { typ, user_id: userId, ver: version, jti, exp } = payload;
      const resetUntil = payload.password_reset_until;
      if (typ !== SESSION_TYPE) throw new Error('not a session token');
      if (typeof userId !== 'number' || typeof version !== 'number' || typeof jti !== 'string')
        throw new Error('incomplete');
      // No account has an id the database cannot hold: such a token is not valid (a 401, where
      // the lookup's refusal was a 400 "A number is out of range.").
      if (!Number.isInteger(userId) || userId < 1 || userId > INT_MAX)
        throw new Error('no such id');
      // jose checks exp only when present: a session must have one, and not too far ahead.
      if (typeof exp !== 'number' || exp > now + this.ttlSeconds + SKEW_SECONDS)
        throw new Error('bad expiry');
      const claims: SessionClaims = { userId, version, jti, exp };
      if (typeof resetUntil === 'number') claims.passwordResetUntil = resetUntil;
      this.verified.set(token, claims);
      return claims;
    } catch {
      if (known) this.verified.delete(token);
      throw new Unauthorized(TOKEN_INVALID, TOKEN_NOT_VALID);
    }
  }

  /**
   * A login-link token `{typ: login_link, user_id, jti, exp}`: a JWT because the web reads its
   * expiry before exchanging it (spec §2 /login); the caller records the jti for one-time use.
   */
  async signLoginLink(userId: number, jti: string, ttlSeconds: number): Promise<string> {
    return new SignJWT({ typ: LOGIN_LINK_TYPE, user_id: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setJti(jti)
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /** Signature, expiry and type of a login link; whether it was used is the caller's check. */
  async verifyLoginLink(token: string): Promise<{ userId: number; jti: string }> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.typ !== LOGIN_LINK_TYPE || typeof payload.exp !== 'number')
        throw new Error('not a login link');
      if (typeof payload.user_id !== 'number' || typeof payload.jti !== 'string')
        throw new Error('incomplete');
      return { userId: payload.user_id, jti: payload.jti };
    } catch {
      throw new Unauthorized(TOKEN_INVALID, TOKEN_NOT_VALID);
    }
  }
}

export function hasPermission(user: AuthUser | null, permission: Permission): boolean {
  if (!user) return false;
  return user.isSuperuser || user.permissions.has(permission);
}

const authUserQuery = preparedPer((db: Db) =>
  db
    .select({
      id: users.id,
      isStaff: users.isStaff,
      isSuperuser: users.isSuperuser,
      isActive: users.isActive,
      sessionVersion: users.sessionVersion,
      permission: userPermissions.permission,
      revoked: sql<boolean>`exists (select 1 from ${revokedSessions} where ${revokedSessions.jti} = ${sql.placeholder('jti')})`,
    })
    .from(users)
    .leftJoin(userPermissions, eq(userPermissions.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('auth_user'),
);

function toAuthUser(rows: Awaited<ReturnType<ReturnType<typeof authUserQuery>['execute']>>) {
  const first = rows[0];
  const permissions = new Set(
    first.isSuperuser
      ? [...PERMISSIONS]
      : rows.flatMap((r) => (r.permission ? [r.permission] : [])),
  );
  return { id: first.id, isStaff: first.isStaff, isSuperuser: first.isSuperuser, permissions };
}

/** Read on every authenticated request, never cached: a change of rights applies at once. */
export async function loadAuthUser(db: Db, userId: number): Promise<AuthUser | null> {
  const rows = await authUserQuery(db).execute({ userId, jti: '' });
  if (rows.length === 0 || !rows[0].isActive) return null;
  return toAuthUser(rows);
}

/**
 * onRequest hook: reads the Bearer token when present; an invalid one is a 401. A session
 * ends when its user's session version moves on (password change, reset, login link,
 * logout-all) or when its jti was logged out; both are read from the database, or from
 * `sessions`, which forgets a session as soon as such a change is announced and answers only
 * after hearing every announcement committed before the request, so every instance sees it at once.
 */
export function authenticate(tokens: Tokens, db: Db, sessions?: SessionCache) {
  return async (request: FastifyRequest) => {
    request.authUser = null;
    request.authSession = null;
    const header = request.headers.authorization;
    if (!header) return;
    const [scheme, token] = header.split(' ');
    // A rig agent's key is no session: the laps route checks it.
    if (scheme === 'Rig') return;
    if (!/^(Bearer|JWT)$/i.test(scheme) || !token)
      throw new Unauthorized(TOKEN_INVALID, TOKEN_NOT_VALID);
    const claims = await tokens.verify(token);
    const known = sessions ? await sessions.get(token, () => request.changesHeard()) : null;
    if (known) {
      request.authUser = known.user;
      request.authSession = known.claims;
      return;
    }
    const mark = sessions?.mark();
    const rows = await authUserQuery(db).execute({ userId: claims.userId, jti: claims.jti });
    if (rows.length === 0 || !rows[0].isActive)
      throw new Unauthorized('User not found', 'user_not_found');
    if (rows[0].sessionVersion !== claims.version || rows[0].revoked)
      throw new Unauthorized(TOKEN_INVALID, TOKEN_NOT_VALID);
    request.authUser = toAuthUser(rows);
    request.authSession = claims;
    if (sessions && mark !== undefined)
      sessions.set(token, { user: request.authUser, claims }, mark);
  };
}

/** The signed-in user, or a 401. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw new Unauthorized();
  return request.authUser;
}

export function requireStaff(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (!user.isStaff && !user.isSuperuser) throw new Forbidden();
  return user;
}

export function requirePermission(request: FastifyRequest, ...perms: Permission[]): AuthUser {
  const user = requireUser(request);
  if (!perms.every((p) => hasPermission(user, p))) throw new Forbidden();
  return user;
}

/** preHandler forms of the guards, for route options. */
export const guards = {
  user: async (request: FastifyRequest, _reply: FastifyReply) => void requireUser(request),
  staff: async (request: FastifyRequest, _reply: FastifyReply) => void requireStaff(request),
  permission:
    (...perms: Permission[]) =>
    async (request: FastifyRequest, _reply: FastifyReply) =>
      void requirePermission(request, ...perms),
};
