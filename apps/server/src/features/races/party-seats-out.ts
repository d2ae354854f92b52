import { sql } from 'drizzle-orm';
import type { Queryable } from '../../plugins/payments/charge-card';

/**
 * The party places whose seat is out of service at the party's time (issue 41, decision 0117):
 * a blackout covers the seat now (a party running) or at its start (one set up for later). As
 * `partyId|calendarId`, for the Parties and launcher screens' flag.
 */
export async function placesOutOfService(
  db: Queryable,
  partyIds: number[],
  now = new Date(),
): Promise<Set<string>> {
  if (partyIds.length === 0) return new Set();
  const result = await db.execute<{ party: number; calendar: number }>(sql`
    select m.party_id as party, m.calendar_id as calendar
    from party_members m
    join parties p on p.id = m.party_id
    where m.party_id in (${sql.join(
      partyIds.map((id) => sql`${id}`),
      sql`, `,
    )})
      and exists (
        select 1 from reservations r
        where r.calendar_id = m.calendar_id and r.is_blackout and r.cancelled_at is null
          and r.time <= greatest(${now.toISOString()}::timestamptz, coalesce(p.starts_at, '-infinity'))
          and r.time > greatest(${now.toISOString()}::timestamptz, coalesce(p.starts_at, '-infinity'))
            - interval '30 minutes')`);
  return new Set(result.rows.map((r) => `${r.party}|${r.calendar}`));
}
