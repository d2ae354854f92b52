// Which rig agents hold a launcher socket, on any instance (decision 0115): one row per rig
// socket in `rig_connections`, so the launcher can say "No rig connected" before Start and name
// the seats a signal did not reach after it, whichever instance holds the rig's socket.
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rigConnections } from '../../db/schema/races';
import { publishChange } from '../../plugins/changes';
import type { Queryable } from '../../plugins/payments/charge-card';

/** A row lives this many ping rounds past its last round: a missed round or two is not a loss. */
const ROUNDS_KEPT = 3;
const expiresIn = (pingMs: number) =>
  sql`now() + make_interval(secs => ${(pingMs * ROUNDS_KEPT) / 1000})`;

/** A rig's socket joined an event: its seat shows as connected at once, on every instance. */
export async function rigJoined(
  db: Db,
  socketId: string,
  calendarId: number,
  eventId: number,
  pingMs: number,
) {
  await db.transaction(async (tx) => {
    await tx
      .insert(rigConnections)
      .values({ id: socketId, calendarId, eventId, expiresAt: expiresIn(pingMs) })
      .onConflictDoNothing();
    await publishChange(tx, 'events', eventId);
    await publishChange(tx, 'rigs', calendarId);
  });
}

/** A rig's socket closed: its seat shows as not connected (unless another socket holds it). */
export async function rigLeft(db: Db, socketId: string) {
  await db.transaction(async (tx) => {
    const gone = await tx
      .delete(rigConnections)
      .where(eq(rigConnections.id, socketId))
      .returning({ eventId: rigConnections.eventId, calendarId: rigConnections.calendarId });
    for (const row of gone) {
      await publishChange(tx, 'events', row.eventId);
      await publishChange(tx, 'rigs', row.calendarId);
    }
  });
}

/**
 * Each ping round: this instance's rig sockets are still there; rows whose instance stopped
 * without closing them (past `expires_at`) are removed and their events announced, so the
 * launcher shows those seats as not connected without anyone reloading.
 */
export async function rigRound(db: Db, socketIds: string[], pingMs: number) {
  if (socketIds.length)
    await db
      .update(rigConnections)
      .set({ expiresAt: expiresIn(pingMs) })
      .where(inArray(rigConnections.id, socketIds));
  await db.transaction(async (tx) => {
    const gone = await tx
      .delete(rigConnections)
      .where(lt(rigConnections.expiresAt, sql`now()`))
      .returning({ eventId: rigConnections.eventId, calendarId: rigConnections.calendarId });
    for (const eventId of new Set(gone.map((g) => g.eventId)))
      await publishChange(tx, 'events', eventId);
    for (const calendarId of new Set(gone.map((g) => g.calendarId)))
      await publishChange(tx, 'rigs', calendarId);
  });
}

/** The seats of these events that a rig's socket holds now, as `event:calendar` keys. */
export async function connectedSeats(db: Queryable, eventIds: number[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ eventId: rigConnections.eventId, calendarId: rigConnections.calendarId })
    .from(rigConnections)
    .where(
      and(inArray(rigConnections.eventId, eventIds), gt(rigConnections.expiresAt, sql`now()`)),
    );
  return new Set(rows.map((r) => seatKey(r.eventId, r.calendarId)));
}

export const seatKey = (eventId: number, calendarId: number) => `${eventId}:${calendarId}`;
