// The launchers' side of an event: rigs reporting their load state, host signals to every seat,
// peer messages relayed (spec §4).
import { and, asc, eq } from 'drizzle-orm';
import {
  signalAnswer,
  type RigReport,
  type SignalResult,
  type SignalWrite,
} from '@paddock/contract/races';
import type { Db } from '../../db/client';
import { eventEntries, raceEvents } from '../../db/schema/races';
import { calendars } from '../../db/schema/venue';
import type { AuthUser } from '../../plugins/auth';
import { publishChange, publishRelay } from '../../plugins/changes';
import { NotFound } from '../../plugins/errors';
import { recordAudit } from '../audit/audit.service';
import { connectedSeats, seatKey } from './rig-presence';

/** A rig reports its load state (spec §4): stored on its seat's entry, then announced. */
export async function reportState(db: Db, calendarId: number, eventId: number, state: RigReport) {
  await db.transaction(async (tx) => {
    const flags =
      state === 'exited'
        ? { exited: true, initialized: false, launched: false }
        : state === 'initialized'
          ? { exited: false, initialized: true, launched: false }
          : { exited: false, initialized: true, launched: true };
    const updated = await tx
      .update(eventEntries)
      .set(flags)
      .where(and(eq(eventEntries.eventId, eventId), eq(eventEntries.calendarId, calendarId)))
      .returning({ id: eventEntries.id });
    if (updated.length) {
      await publishChange(tx, 'events', eventId);
      await publishChange(tx, 'rigs', calendarId);
    }
  });
}

/** What else happens around a host signal: the AC server link starts a party's server on
 *  SESSION_START and stops it on SESSION_EXIT (decision 0033). */
export interface SignalHooks {
  /** Before the seats hear the signal; a throw refuses it (nothing is sent). */
  before?: (eventId: number, signal: SignalWrite['signal']) => Promise<void>;
  /** After the signal was sent. */
  after?: (eventId: number, signal: SignalWrite['signal']) => Promise<void>;
}

/**
 * A host signal (spec §4) to every seat of the event, on every instance. The answer names the
 * seats whose rig holds the event's socket (they hear it) and the seats with no rig connected
 * (nothing there hears it), read in the same transaction as the relay (decision 0115).
 */
export async function sendSignal(
  db: Db,
  actor: AuthUser,
  eventId: number,
  body: SignalWrite,
  hooks: SignalHooks = {},
): Promise<SignalResult> {
  await hooks.before?.(eventId, body.signal);
  const result = await db.transaction(async (tx) => {
    const [event] = await tx
      .select({ id: raceEvents.id })
      .from(raceEvents)
      .where(eq(raceEvents.id, eventId));
    if (!event) throw new NotFound();
    const excluded =
      body.signal === 'SESSION_START' ? [...new Set(body.excluded_calendars ?? [])] : [];
    const seats = await tx
      .select({ calendar: calendars.id, calendar_name: calendars.name })
      .from(eventEntries)
      .innerJoin(calendars, eq(calendars.id, eventEntries.calendarId))
      .where(eq(eventEntries.eventId, eventId))
      .orderBy(asc(calendars.sortOrder), asc(calendars.id));
    const rigs = await connectedSeats(tx, [eventId]);
    const asked = seats.filter((s) => !excluded.includes(s.calendar));
    const sentTo = asked.filter((s) => rigs.has(seatKey(eventId, s.calendar)));
    const notConnected = asked.filter((s) => !rigs.has(seatKey(eventId, s.calendar)));
    await recordAudit(tx, actor, {
      action: 'races.signal',
      targetType: 'race_event',
      targetId: eventId,
      after: {
        signal: body.signal,
        excluded_calendars: excluded,
        sent_to: sentTo.map((s) => s.calendar_name),
        not_connected: notConnected.map((s) => s.calendar_name),
      },
    });
    await publishRelay(tx, {
      topic: 'events',
      id: eventId,
      data: { type: 'signal', signal: body.signal, excluded_calendars: excluded },
    });
    return {
      detail: signalAnswer(body.signal, sentTo, notConnected),
      sent_to: sentTo,
      not_connected: notConnected,
    };
  });
  await hooks.after?.(eventId, body.signal);
  return result;
}

/** A peer message (`{type: "server"}`) passed on to every other socket of the event. */
export async function relayPeer(
  db: Db,
  eventId: number,
  message: { data: unknown; from: number | null; socket: string },
) {
  await publishRelay(db, { topic: 'events', id: eventId, data: { type: 'server', ...message } });
}
