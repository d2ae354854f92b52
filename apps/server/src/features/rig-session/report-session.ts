import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reservations } from '../../db/schema/booking';
import { publishChange } from '../../plugins/changes';
import { ValidationError } from '../../plugins/errors';
import { recordAudit } from '../audit/audit.service';
import type { Rig } from './rig-session.service';

export const NOT_THIS_SEAT = 'This booking is not on this rig’s seat.';

const WORDS = { started: 'started', warned: 'warned', ended: 'ended' } as const;

/**
 * What the agent did with a session while Paddock was out of reach (issue 42, decision 0120),
 * told once it is back: written to the audit trail; a start also checks the booking in, as it
 * would have online. A resend writes another row (the agent deletes a report once answered).
 */
export async function reportRigSession(
  db: Db,
  rig: Rig,
  body: { reservation: number; event: keyof typeof WORDS; at: string; offline: boolean },
) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: reservations.id, userId: reservations.userId })
      .from(reservations)
      .where(
        and(eq(reservations.id, body.reservation), eq(reservations.calendarId, rig.calendarId)),
      );
    if (!row) throw ValidationError.field('reservation', NOT_THIS_SEAT);
    if (body.event === 'started') {
      const marked = await tx
        .update(reservations)
        .set({ attendance: 'checked_in', updatedAt: sql`now()` })
        .where(and(eq(reservations.id, row.id), isNull(reservations.attendance)))
        .returning({ id: reservations.id });
      if (marked.length > 0) await publishChange(tx, 'reservations', rig.calendarId);
    }
    await recordAudit(tx, null, {
      action: 'rig_session.report',
      targetType: 'reservation',
      targetId: row.id,
      subjectUserId: row.userId,
      after: { event: WORDS[body.event], at: body.at, offline: body.offline, rig: rig.id },
    });
  });
  return { detail: 'Reported.' };
}
