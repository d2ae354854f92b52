import { SignJWT, jwtVerify } from 'jose';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { Permission } from '@paddock/contract/accounts';
import { PERMISSIONS } from '@paddock/contract/accounts';
import type { Db } from '../db/client';
import { preparedPer } from '../db/prepared';
import { userPermissions, users } from '../db/schema/accounts';
import { Forbidden, Unauthorized } from './errors';

export type AuthUser = {
  id: number;
  isStaff: boolean;
  isSuperuser: boolean;
  permissions: Set<string>;
};

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
  }
}

const TOKEN_INVALID = 'Given token not valid for any token type';
const LOGIN_LINK_PURPOSE = 'login_link';

/** Bound on remembered verified tokens; past it the memory starts over. */
const VERIFIED_TOKENS = 10_000;

export class Tokens {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, { userId: number; exp: number }>();
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(userId: number, ttlSeconds = this.ttlSeconds): Promise<string> {
    return new SignJWT({ user_id: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /**
   * A session token's user. A token's signature and claims never change, so a token already
   * verified here is only re-checked for expiry (jose's rule: exp must be after the current
   * second). Nothing about the user is kept: the user and rights are read on every request.
   */
  async verify(token: string): Promise<number> {
    const known = this.verified.get(token);
    if (known && known.exp > Math.floor(Date.now() / 1000)) return known.userId;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.user_id !== 'number') throw new Error('no user_id');
      // A login link is not a session: it must be exchanged (once) at /auth/login_link.
      if (payload.purpose !== undefined) throw new Error('not a session token');
      if (typeof payload.exp === 'number' && payload.nbf === undefined) {
        if (this.verified.size >= VERIFIED_TOKENS) this.verified.clear();
        this.verified.set(token, { userId: payload.user_id, exp: payload.exp });
      }
      return payload.user_id;
    } catch {
      if (known) this.verified.delete(token);
      throw new Unauthorized(TOKEN_INVALID, 'token_not_valid');
    }
  }

  /** A login-link token: `{user_id, exp, jti, purpose}`; the caller records the jti. */
  async signLoginLink(userId: number, jti: string, ttlSeconds: number): Promise<string> {
    return new SignJWT({ user_id: userId, purpose: LOGIN_LINK_PURPOSE })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setJti(jti)
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /** Signature, expiry and purpose of a login link; whether it was used is the caller's check. */
  async verifyLoginLink(token: string): Promise<{ userId: number; jti: string }> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.purpose !== LOGIN_LINK_PURPOSE) throw new Error('not a login link');
      if (typeof payload.user_id !== 'number' || typeof payload.jti !== 'string')
        throw new Error('incomplete');
      return { userId: payload.user_id, jti: payload.jti };
    } catch {
      throw new Unauthorized(TOKEN_INVALID, 'token_not_valid');
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
      permission: userPermissions.permission,
    })
    .from(users)
    .leftJoin(userPermissions, eq(userPermissions.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('auth_user'),
);

/** Read on every authenticated request, never cached: a change of rights applies at once. */
export async function loadAuthUser(db: Db, userId: number): Promise<AuthUser | null> {
  const rows = await authUserQuery(db).execute({ userId });
  if (rows.length === 0 || !rows[0].isActive) return null;
  const first = rows[0];
  const permissions = new Set(
    first.isSuperuser
      ? [...PERMISSIONS]
      : rows.flatMap((r) => (r.permission ? [r.permission] : [])),
  );
  return { id: first.id, isStaff: first.isStaff, isSuperuser: first.isSuperuser, permissions };
}

/** onRequest hook: reads the Bearer token when present; an invalid one is a 401. */
export function authenticate(tokens: Tokens, db: Db) {
  return async (request: FastifyRequest) => {
    request.authUser = null;
    const header = request.headers.authorization;
    if (!header) return;
    const [scheme, token] = header.split(' ');
    if (!/^(Bearer|JWT)$/i.test(scheme) || !token)
      throw new Unauthorized(TOKEN_INVALID, 'token_not_valid');
    const userId = await tokens.verify(token);
    const user = await loadAuthUser(db, userId);
    if (!user) throw new Unauthorized('User not found', 'user_not_found');
    request.authUser = user;
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
