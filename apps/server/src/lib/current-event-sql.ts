import { sql, type SQL } from 'drizzle-orm';

/**
 * The race event a seat runs now, in SQL: the event of its started party (a party with no
 * `starts_at`, or one whose `starts_at` has come), else the seat's own. Until the timer has
 * moved a seat out of an earlier party (a moment after `starts_at`), the latest start wins.
 * The one place this rule lives (load-events.ts, the seats' `event`, the launcher's list).
 */
export function currentEventSql(calendarId: SQL | number): SQL<number | null> {
  return sql<number | null>`coalesce(
    (select p.host_event_id from party_members m join parties p on p.id = m.party_id
      where m.calendar_id = ${calendarId} and (p.starts_at is null or p.starts_at <= now())
      order by coalesce(p.starts_at, p.created_at) desc, p.id desc limit 1),
    (select e.id from race_events e where e.calendar_id = ${calendarId}))`;
}
