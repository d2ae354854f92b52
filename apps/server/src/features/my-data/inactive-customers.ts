import { Cron } from 'croner';
import { sql } from 'drizzle-orm';
import { findUserById } from '../accounts/accounts.repo';
import { getSettings } from '../../plugins/settings';
import { anonymise, type DeletionContext } from './delete-account';

// Customers inactive for `inactive_customer_years` are anonymised (issue 45, decision 0124): no
// login, booking or payment for that long, nothing booked ahead and no live club membership.
// 0 (the default) turns it off. Every instance runs the nightly pass; an advisory lock held for
// the pass lets one work at a time, and a customer anonymised is no longer a candidate.

/** Any number, held by pg_try_advisory_xact_lock for one pass across instances. */
const INACTIVE_LOCK = 0x0124_da7a;
/** At most this many a night: a first run on an old database spreads over several nights. */
const PASS_LIMIT = 500;

/** Anonymises whoever is due at `now`; answers their ids (null: another instance is at it). */
export async function anonymiseInactive(
  ctx: DeletionContext,
  now = new Date(),
): Promise<number[] | null> {
  const years = (await getSettings(ctx.db)).inactive_customer_years;
  if (years === 0) return [];
  return ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(${INACTIVE_LOCK}) as locked`,
    );
    if (!rows[0]?.locked) return null;
    const { rows: due } = await tx.execute<{ id: number }>(sql`
      select u.id from users u
      where u.deleted_at is null and not u.is_staff and not u.is_superuser
        and greatest(u.created_at, coalesce(u.last_login, u.created_at),
          coalesce((select max(r.time) from reservations r where r.user_id = u.id), u.created_at),
          coalesce((select max(c.created_at) from charges c where c.user_id = u.id), u.created_at))
          < ${now.toISOString()}::timestamptz - make_interval(years => ${years})
        and not exists (select 1 from reservations r where r.user_id = u.id
          and r.cancelled_at is null and r.time > ${now.toISOString()}::timestamptz)
        and not exists (select 1 from club_memberships m where m.user_id = u.id
          and m.status <> 'cancelled')
      order by u.id limit ${PASS_LIMIT}`);
    const done: number[] = [];
    for (const { id } of due) {
      const row = await findUserById(ctx.db, id);
      if (!row || row.deletedAt) continue;
      try {
        await anonymise(ctx, null, row, 0, 'inactive');
        done.push(id);
      } catch (error) {
        ctx.logError(error, `could not anonymise inactive customer ${id}`);
      }
    }
    return done;
  });
}

/** The pass every night at 03:45 server time (main.ts); tests call `anonymiseInactive`. */
export function startInactiveCustomersJob(ctx: DeletionContext): { stop: () => void } {
  const job = new Cron(
    '0 45 3 * * *',
    {
      protect: true,
      catch: (error) => ctx.logError(error, 'anonymising inactive customers failed'),
    },
    async () => {
      await anonymiseInactive(ctx);
    },
  );
  return { stop: () => job.stop() };
}
