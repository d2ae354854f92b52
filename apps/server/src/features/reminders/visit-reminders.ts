import { Cron } from 'croner';
import { and, eq, gt, isNull, lte, ne } from 'drizzle-orm';
import { reservations, visitReminders } from '../../db/schema/booking';
import { users } from '../../db/schema/accounts';
import type { Db } from '../../db/client';
import type { Mailer } from '../../plugins/mail';
import { getSettings } from '../../plugins/settings';
import { findRowsByIds, type ReservationRow } from '../reservations/reservations.repo';
import { visitsOf } from '../reservations/reservation-calendar';
import { quoteCancel } from '../refunds/refunds.service';
import { reminderMail } from './reminder-mail';

// Visit reminders (issue 45, decision 0119): an e-mail `reminder_hours` before each visit, and a
// second one `second_reminder_hours` before when set. A visit is `visitsOf`'s. Exactly once per
// visit and kind across instances and restarts: the row that records it is written in the
// transaction that sends it (the unique index makes a second instance wait, then skip).

export type ReminderContext = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** The venue as the calendar's organizer (MAIL_FROM). */
  mailFrom: string;
  logError: (error: unknown, message: string) => void;
};

type Kind = 'first' | 'second';
const HOUR = 3_600_000;
/** How far back a visit may have begun and still hold a booking ahead (the longest visit). */
const VISIT_REACH_MS = 24 * HOUR;

/** Sends every reminder due at `now`; answers how many went out. */
export async function remindVisits(ctx: ReminderContext, now = new Date()): Promise<number> {
  const settings = await getSettings(ctx.db);
  const first = settings.reminder_hours;
  const second =
    settings.second_reminder_hours > 0 && (first === 0 || settings.second_reminder_hours < first)
      ? settings.second_reminder_hours
      : 0;
  let sent = 0;
  if (first > 0) sent += await remindKind(ctx, 'first', first, second, now);
  if (second > 0) sent += await remindKind(ctx, 'second', second, 0, now);
  return sent;
}

/**
 * The visits starting within `hours` of now whose customer wants reminders, booked before that
 * window opened (a visit booked inside it needs none), and not already inside the later
 * reminder's window (that one covers it).
 */
async function remindKind(
  ctx: ReminderContext,
  kind: Kind,
  hours: number,
  later: number,
  now: Date,
) {
  const until = new Date(now.getTime() + hours * HOUR);
  const candidates = await ctx.db
    .select({ id: reservations.id, createdAt: reservations.createdAt })
    .from(reservations)
    .innerJoin(users, eq(users.id, reservations.userId))
    .where(
      and(
        isNull(reservations.cancelledAt),
        eq(reservations.isBlackout, false),
        gt(reservations.time, new Date(now.getTime() - VISIT_REACH_MS)),
        lte(reservations.time, until),
        eq(users.visitReminders, true),
        ne(users.email, ''),
        isNull(users.deletedAt),
      ),
    );
  if (candidates.length === 0) return 0;
  const madeAt = new Map(candidates.map((c) => [c.id, c.createdAt.getTime()]));
  const rows = await findRowsByIds(
    ctx.db,
    candidates.map((c) => c.id),
  );
  const byUser = new Map<number, ReservationRow[]>();
  for (const row of rows) byUser.set(row.userId!, [...(byUser.get(row.userId!) ?? []), row]);
  let sent = 0;
  for (const [userId, own] of byUser)
    for (const visit of visitsOf(own)) {
      const start = visit[0].time.getTime();
      if (start <= now.getTime() || start > until.getTime()) continue;
      const booked = Math.min(...visit.map((row) => madeAt.get(row.id)!));
      if (booked > start - hours * HOUR) continue;
      if (later > 0 && start - now.getTime() <= later * HOUR) continue;
      try {
        if (await sendOnce(ctx, userId, visit, kind, now)) sent += 1;
      } catch (error) {
        // Nothing recorded: the next pass tries this visit again.
        ctx.logError(error, `reminder for visit ${visit[0].id} not sent`);
      }
    }
  return sent;
}

async function sendOnce(
  ctx: ReminderContext,
  userId: number,
  visit: ReservationRow[],
  kind: Kind,
  now: Date,
): Promise<boolean> {
  const caller = { id: userId, isStaff: false, isSuperuser: false, permissions: new Set<string>() };
  const quotes = [];
  for (const row of visit) quotes.push(await quoteCancel(ctx.db, caller, row.id, 'policy', now));
  const message = await reminderMail(ctx, visit, quotes, kind);
  return ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(visitReminders)
      .values({ userId, locationId: visit[0].locationId, visitStart: visit[0].time, kind })
      .onConflictDoNothing()
      .returning({ id: visitReminders.id });
    if (!claimed) return false;
    // Sent inside the transaction that records it, its outbox row in that transaction too: a
    // failed send records nothing, and a pass killed after the mail, before the commit, leaves
    // neither mail nor mark, so the next pass sends it once (issue 41).
    await ctx.mailer.send(message, tx);
    return true;
  });
}

/** The reminders every minute (main.ts): every instance runs it; the unique row decides. */
export function startReminderJob(ctx: ReminderContext): { stop: () => void } {
  const job = new Cron(
    '0 * * * * *',
    {
      protect: true,
      catch: (error) => ctx.logError(error, 'visit reminders failed'),
    },
    async () => {
      await remindVisits(ctx);
    },
  );
  return { stop: () => job.stop() };
}
