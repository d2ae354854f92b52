import { sql } from 'drizzle-orm';
import { SLOT_MINUTES } from '../../lib/slots';
import type { Queryable } from '../../plugins/payments/charge-card';

/**
 * What a seat has now and next (issue 42, decision 0120): the one reading of "who sits here" the
 * rig screen, the rig agent and the staff rig map share. A session is a run of consecutive
 * half-hours of one customer on the seat (booked as one or extended later: 18:00 and 18:30 of the
 * same customer are one session 18:00–19:00). One query for a whole location.
 */

export type SeatSession = {
  /** The run's first booking (the one its page and check-in name). */
  reservation: number;
  /** Every booking of the run, in time order. */
  reservations: number[];
  customer: number | null;
  /** The spec's display name without its last fallback: never an e-mail (null: none to show). */
  name: string | null;
  starts: Date;
  ends: Date;
  /** Every half-hour of the run is paid. */
  paid: boolean;
  /** The customer is a club member in good standing. */
  club: boolean;
};

export type SeatNow = {
  seat: number;
  seatName: string;
  location: number;
  timezone: string;
  /** A blackout (out of service) covers the instant, or the seat is switched off. */
  outOfService: boolean;
  /** The session running at the instant (`starts <= at < ends`). */
  current: SeatSession | null;
  /** The first session starting after the instant (after `current` when there is one). */
  next: SeatSession | null;
};

export type SeatScope = { location: number } | { seat: number };

/** How far ahead `next` looks; a seat free for longer reads as free. */
export const NEXT_HORIZON_DAYS = 14;

type Row = {
  seat: number;
  seat_name: string;
  location: number;
  timezone: string;
  active: boolean;
  out_of_service: boolean;
  kind: 'current' | 'next' | null;
  ids: number[] | null;
  customer: number | null;
  name: string | null;
  starts: Date | string | null;
  ends: Date | string | null;
  paid: boolean | null;
  club: boolean | null;
};

const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

export async function seatNow(db: Queryable, scope: SeatScope, at: Date): Promise<SeatNow[]> {
  const step = sql.raw(`interval '${SLOT_MINUTES} minutes'`);
  const seats =
    'seat' in scope
      ? sql`c.id = ${scope.seat}`
      : sql`c.location_id = ${scope.location} and c.active`;
  const atIso = at.toISOString();
  const { rows } = await db.execute<Row>(sql`
    with seat as (
      select c.id, c.name, c.location_id, c.active, l.timezone, c.sort_order
      from calendars c join locations l on l.id = c.location_id
      where ${seats}
    ),
    booked as (
      select r.id, r.calendar_id, r.time, r.user_id, r.paid, r.is_blackout,
        case when lag(r.time) over w = r.time - ${step}
              and lag(r.user_id) over w is not distinct from r.user_id
              and lag(r.is_blackout) over w = r.is_blackout
             then 0 else 1 end as starts_run
      from reservations r
      where r.calendar_id in (select id from seat) and r.cancelled_at is null
        and r.time > ${atIso}::timestamptz - interval '1 day'
        and r.time < ${atIso}::timestamptz + ${sql.raw(`interval '${NEXT_HORIZON_DAYS} days'`)}
      window w as (partition by r.calendar_id order by r.time)
    ),
    numbered as (
      select *, sum(starts_run) over (partition by calendar_id order by time) as run from booked
    ),
    runs as (
      select calendar_id, run, bool_or(is_blackout) as blackout, min(user_id) as user_id,
        array_agg(id order by time) as ids, min(time) as starts, max(time) + ${step} as ends,
        bool_and(paid) as paid
      from numbered group by calendar_id, run
    ),
    picked as (
      select distinct on (calendar_id, kind) *
      from (
        select runs.*, case when starts <= ${atIso}::timestamptz then 'current' else 'next' end as kind
        from runs
        where not blackout and ends > ${atIso}::timestamptz
      ) k
      order by calendar_id, kind, starts
    )
    select s.id as seat, s.name as seat_name, s.location_id as location, s.timezone, s.active,
      exists (select 1 from runs b where b.calendar_id = s.id and b.blackout
              and b.starts <= ${atIso}::timestamptz and b.ends > ${atIso}::timestamptz) as out_of_service,
      p.kind, p.ids, p.user_id as customer,
      coalesce(nullif(u.racer_name, ''), nullif(trim(u.first_name || ' ' || u.last_name), '')) as name,
      p.starts, p.ends, p.paid,
      exists (select 1 from club_memberships m where m.user_id = p.user_id and m.status = 'active') as club
    from seat s
    left join picked p on p.calendar_id = s.id
    left join users u on u.id = p.user_id
    order by s.sort_order, s.id, p.kind
  `);

  const bySeat = new Map<number, SeatNow>();
  for (const row of rows) {
    let seat = bySeat.get(row.seat);
    if (!seat) {
      seat = {
        seat: row.seat,
        seatName: row.seat_name,
        location: row.location,
        timezone: row.timezone,
        outOfService: row.out_of_service || !row.active,
        current: null,
        next: null,
      };
      bySeat.set(row.seat, seat);
    }
    if (!row.kind || !row.ids || !row.starts || !row.ends) continue;
    seat[row.kind] = {
      reservation: row.ids[0],
      reservations: row.ids,
      customer: row.customer,
      name: row.name,
      starts: asDate(row.starts),
      ends: asDate(row.ends),
      paid: Boolean(row.paid),
      club: Boolean(row.club),
    };
  }
  return [...bySeat.values()];
}

/** One seat's reading (null: no such seat). */
export async function oneSeatNow(db: Queryable, seat: number, at: Date): Promise<SeatNow | null> {
  const [row] = await seatNow(db, { seat }, at);
  return row ?? null;
}

/** Minutes from `at` until the session ends (rounded up; 0 once it has ended). */
export function minutesLeft(session: Pick<SeatSession, 'ends'>, at: Date): number {
  return Math.max(0, Math.ceil((session.ends.getTime() - at.getTime()) / 60_000));
}
