// One-time tickets that open an event's launcher socket.
import crypto from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { TICKET_SECONDS } from '@paddock/contract/races';
import type { Db } from '../../db/client';
import { raceEvents, socketTickets } from '../../db/schema/races';
import { sha256Hex } from '../../lib/hash';
import type { AuthUser } from '../../plugins/auth';
import { NotFound } from '../../plugins/errors';

const ticketHash = (ticket: string) => sha256Hex(ticket);

/** A one-time ticket for the event's socket, good for TICKET_SECONDS. */
export async function issueTicket(db: Db, actor: AuthUser, eventId: number) {
  const [event] = await db
    .select({ id: raceEvents.id })
    .from(raceEvents)
    .where(eq(raceEvents.id, eventId));
  if (!event) throw new NotFound();
  const ticket = crypto.randomBytes(24).toString('base64url');
  await db.insert(socketTickets).values({
    hash: ticketHash(ticket),
    userId: actor.id,
    eventId,
    expiresAt: new Date(Date.now() + TICKET_SECONDS * 1000),
  });
  // Spent and expired tickets go now and then.
  if (Math.random() < 0.05)
    await db.delete(socketTickets).where(sql`${socketTickets.expiresAt} < now()`);
  return { ticket, expires_in: TICKET_SECONDS };
}

/** Spends a ticket: the user it was made for, or null (unknown, used, expired, other event). */
export async function redeemTicket(db: Db, ticket: string, eventId: number) {
  const [row] = await db
    .delete(socketTickets)
    .where(
      and(
        eq(socketTickets.hash, ticketHash(ticket)),
        eq(socketTickets.eventId, eventId),
        gt(socketTickets.expiresAt, new Date()),
      ),
    )
    .returning({ userId: socketTickets.userId });
  return row?.userId ?? null;
}
