import { eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { revokedSessions } from '../../db/schema/security';
import type { SessionClaims, Tokens } from '../../plugins/auth';

/**
 * Response header carrying a fresh session token when a call ended the caller's own sessions
 * (own password change): the web app swaps it in, every other session of the user is over.
 */
export const RENEWED_SESSION_HEADER = 'x-session-token';

/** The header as the API document states it, on the answers of the calls that may renew. */
export const renewedSessionHeaderDoc = {
  200: {
    'X-Session-Token': {
      type: 'string' as const,
      description:
        'A new session token, sent when the caller changed their own password: every session ' +
        'of theirs ended, the old token no longer works, this one does.',
    },
  },
};

/**
 * Ends every session of the user: the version in their tokens no longer matches. Returns the
 * new version, under which a session for the caller can be signed.
 */
export async function endAllSessions(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ version: users.sessionVersion });
  return row?.version ?? 0;
}

/** Ends this one session: its jti is refused until the token would have expired anyway. */
export async function endSession(db: Db, claims: SessionClaims): Promise<void> {
  await db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, sql`now()`));
  await db
    .insert(revokedSessions)
    .values({ jti: claims.jti, expiresAt: new Date(claims.exp * 1000) })
    .onConflictDoNothing();
}

/**
 * After a change that ended all of the user's sessions: when the caller is that user, they keep
 * a session, carried in the renewed-session header.
 */
export async function renewCallerSession(
  deps: { db: Db; tokens: Tokens },
  reply: FastifyReply,
  callerId: number,
  userId: number,
  version: number,
) {
  if (callerId !== userId) return;
  reply.header(RENEWED_SESSION_HEADER, await deps.tokens.sign(userId, version));
}
