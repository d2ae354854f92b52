import type pg from 'pg';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { ANNOUNCE_AFTER_COMMIT, announceAfterCommit } from '../../plugins/changes';
import type { PersonName } from './reservations.repo';

export type SeatBooking = {
  calendarId: number;
  slot: string;
  time: Date;
  userId: number | null;
  paid: boolean;
  /** What stays owed, for a club member in good standing (fees waived) and for anyone else. */
  amountCents: { member: number; other: number };
  isBlackout: boolean;
  notes: string;
  createdById: number;
  /** The customer's unpaid-bookings rule: checked when set (stored setting, else `fallback`). */
  unpaidLimit: { fallback: number; min: number; max: number; now: Date } | null;
};

/** Why nothing was booked, or the booking with the names its answer shows. */
export type SeatBookingOutcome =
  | {
      booked: true;
      id: number;
      amountCents: number;
      user: PersonName | null;
      creator: PersonName | null;
    }
  | { booked: false; reason: 'no-user' | 'no-seat' | 'unpaid-limit'; limit: number }
  | { booked: false; reason: 'taken'; limit: number };

type Outcome = {
  id: number | null;
  amount_cents: number | null;
  user_found: boolean;
  seat_active: boolean;
  held_for_other: boolean;
  unpaid: number;
  unpaid_limit: number;
  user_name: PersonName | null;
  creator_name: PersonName | null;
  seq: string | null;
  announce_later: string;
};

const dialect = new PgDialect({ casing: 'snake_case' });

const personJson = (alias: string) =>
  sql.raw(
    `json_build_object('email', ${alias}.email, 'firstName', ${alias}.first_name, 'lastName', ${alias}.last_name, 'racerName', ${alias}.racer_name)`,
  );

/**
 * Books one seat-slot in one statement, so in one round trip and atomic without a transaction
 * (decision 0046). The live (seat, slot) unique index decides races (ON CONFLICT DO NOTHING: the
 * loser waits for the winner's commit, then inserts nothing); the same statement checks the
 * user, the seat still active, a waitlist hold for someone else, the unpaid-bookings limit and
 * club standing (the fee), claims the caller's own hold, and stores the change for the change
 * feed. Nothing is written unless the booking is. The booking is announced after its commit
 * (decision 0053), so `db` is never a transaction.
 */
export async function bookSeat(db: Db, b: SeatBooking): Promise<SeatBookingOutcome> {
  const user = sql`${b.userId}::int`;
  const now = b.unpaidLimit?.now ?? new Date();
  const limit = b.unpaidLimit
    ? sql`coalesce((
        select (value #>> '{}')::int from settings
        where key = 'max_unpaid_reservations' and jsonb_typeof(value) = 'number'
          and value #>> '{}' ~ '^[0-9]{1,9}$'
          and (value #>> '{}')::int between ${b.unpaidLimit.min} and ${b.unpaidLimit.max}
      ), ${b.unpaidLimit.fallback}::int)`
    : sql`null::int`;
  // Counted only where the rule applies: the planner does not skip the count for a null limit,
  // and an account with thousands of bookings (a desk's walk-in account) made every booking
  // for it scan them all.
  const unpaid = b.unpaidLimit
    ? sql`select count(*)::int as n from reservations
        where user_id = ${user} and not paid and not is_blackout
          and cancelled_at is null and time > ${now.toISOString()}::timestamptz`
    : sql`select null::int as n`;
  const statement = sql`
    with
    target as (select * from users where id = ${user}),
    creator as (select * from users where id = ${b.createdById}::int),
    seat as (select 1 from calendars where id = ${b.calendarId}::int and active),
    held as (
      select user_id from waitlist_entries
      where status = 'offered' and hold_until > ${now.toISOString()}::timestamptz
        and slot = ${b.slot}::text and held_calendar_id = ${b.calendarId}::int
    ),
    rule as (select ${limit} as unpaid_limit),
    unpaid as (${unpaid}),
    member as (
      select exists (
        select 1 from club_memberships where user_id = ${user} and status = 'active'
      ) as yes
    ),
    added as (
      insert into reservations
        (calendar_id, slot, time, user_id, paid, amount_cents, is_blackout, notes, created_by_id)
      select ${b.calendarId}::int, ${b.slot}::text, ${b.time.toISOString()}::timestamptz, ${user},
        ${b.paid}::boolean,
        case when member.yes then ${b.amountCents.member}::int else ${b.amountCents.other}::int end,
        ${b.isBlackout}::boolean, ${b.notes}::text, ${b.createdById}::int
      from member, rule
      where (${user} is null or exists (select 1 from target))
        and exists (select 1 from seat)
        and not exists (select 1 from held where user_id is distinct from ${user})
        and (rule.unpaid_limit is null or (select n from unpaid) < rule.unpaid_limit)
      on conflict (calendar_id, slot) where cancelled_at is null do nothing
      returning id, amount_cents
    ),
    claimed as (
      update waitlist_entries set status = 'booked'
      where status = 'offered' and hold_until > ${now.toISOString()}::timestamptz
        and slot = ${b.slot}::text and held_calendar_id = ${b.calendarId}::int
        and user_id = ${user} and exists (select 1 from added)
      returning id
    ),
    change as (
      insert into change_events (topic, ref_id)
      select 'reservations', ${b.calendarId}::int from added
      returning seq
    )
    select
      (select id from added) as id,
      (select amount_cents from added) as amount_cents,
      exists (select 1 from target) as user_found,
      exists (select 1 from seat) as seat_active,
      exists (select 1 from held where user_id is distinct from ${user}) as held_for_other,
      (select n from unpaid) as unpaid,
      (select unpaid_limit from rule) as unpaid_limit,
      (select ${personJson('target')} from target) as user_name,
      (select ${personJson('creator')} from creator) as creator_name,
      (select seq from change) as seq,
      ${ANNOUNCE_AFTER_COMMIT} as announce_later`;
  // A named prepared statement (decision 0060): each pool connection parses and plans it once
  // and then only binds and executes it. Its text depends only on whether the unpaid rule applies
  // (every value is a parameter), so the two variants have a name each; node-postgres refuses a
  // name reused for another text.
  const query = dialect.sqlToQuery(statement);
  const result = await (db as Db & { $client: pg.Pool }).$client.query<Outcome>({
    name: b.unpaidLimit ? 'paddock_book_seat_limited' : 'paddock_book_seat',
    text: query.sql,
    values: query.params,
  });
  const row = result.rows[0];
  if (row.id !== null && row.amount_cents !== null && row.seq !== null) {
    await announceAfterCommit(db, {
      changes: [{ seq: Number(row.seq), topic: 'reservations', id: b.calendarId }],
      cache: [`s:${b.calendarId}`],
    });
    return {
      booked: true,
      id: row.id,
      amountCents: row.amount_cents,
      user: row.user_name,
      creator: row.creator_name,
    };
  }
  const limitOf = row.unpaid_limit ?? 0;
  if (b.userId !== null && !row.user_found)
    return { booked: false, reason: 'no-user', limit: limitOf };
  if (!row.seat_active) return { booked: false, reason: 'no-seat', limit: limitOf };
  if (row.held_for_other) return { booked: false, reason: 'taken', limit: limitOf };
  if (row.unpaid_limit !== null && row.unpaid >= row.unpaid_limit)
    return { booked: false, reason: 'unpaid-limit', limit: limitOf };
  return { booked: false, reason: 'taken', limit: limitOf };
}
