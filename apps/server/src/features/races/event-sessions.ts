// An event's sessions: the defaults a seat's event starts with, replacing them, their rules.
import { eq } from 'drizzle-orm';
import {
  SESSION_DEFAULTS,
  SESSION_LAPS_MAX,
  SESSION_NAMES,
  type SessionWrite,
} from '@paddock/contract/races';
import { eventSessions } from '../../db/schema/races';
import { ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';

export function defaultSessions(): Required<SessionWrite>[] {
  return (['PRACTICE', 'QUALIFYING', 'RACE'] as const).map((type) => ({
    name: SESSION_NAMES[type],
    type,
    spawn: SESSION_DEFAULTS[type].spawn,
    duration: SESSION_DEFAULTS[type].duration,
    duration_is_laps: false,
  }));
}

export async function replaceSessions(tx: Queryable, eventId: number, list: SessionWrite[]) {
  await tx.delete(eventSessions).where(eq(eventSessions.eventId, eventId));
  await tx.insert(eventSessions).values(
    list.map((s, i) => ({
      eventId,
      name: s.name || SESSION_NAMES[s.type],
      type: s.type,
      spawn: s.spawn ?? SESSION_DEFAULTS[s.type].spawn,
      ordering: i,
      duration: s.duration,
      durationIsLaps: s.duration_is_laps ?? false,
    })),
  );
}

/** Spec §5 and issue 12: durations, one race at most, HOTLAP only for a single seat. */
export function checkSessions(list: SessionWrite[], multiplayer: boolean) {
  const errors: string[] = [];
  list.forEach((s, i) => {
    if (s.duration_is_laps && s.duration > SESSION_LAPS_MAX)
      errors.push(`Session ${i + 1}: a session runs at most ${SESSION_LAPS_MAX} laps.`);
    if (multiplayer && (s.type === 'HOTLAP' || s.spawn === 'HOTLAP_START'))
      errors.push(`Session ${i + 1}: HOTLAP and HOTLAP_START are for a single seat only.`);
  });
  if (list.filter((s) => s.type === 'RACE').length > 1)
    errors.push('An event has at most one race session.');
  if (errors.length) throw new ValidationError({ sessions: errors });
}
