import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { loadAuthUser, type AuthUser } from '../../plugins/auth';
import { sha256Hex } from '../../lib/hash';

/**
 * A staff member's calendar-feed token: random, read-only (it opens /api/feed.ics and nothing
 * else), revocable, and never a session. Calendar apps cannot send headers, so it travels in the
 * feed URL; only its SHA-256 is stored, so the link is shown once, when it is made.
 */
const PREFIX = 'feed_';
const hash = sha256Hex;

/** A new token for the user; the previous one stops working. */
export async function resetFeedToken(db: Db, userId: number): Promise<string> {
  const token = PREFIX + crypto.randomBytes(24).toString('base64url');
  await db
    .update(users)
    .set({ feedTokenHash: hash(token) })
    .where(eq(users.id, userId));
  return token;
}

export async function revokeFeedToken(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ feedTokenHash: null }).where(eq(users.id, userId));
}

/** The owner of a feed token, with their current rights; null when unknown or revoked. */
export async function feedTokenUser(db: Db, token: string): Promise<AuthUser | null> {
  if (!token.startsWith(PREFIX)) return null;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.feedTokenHash, hash(token)));
  return row ? loadAuthUser(db, row.id) : null;
}
