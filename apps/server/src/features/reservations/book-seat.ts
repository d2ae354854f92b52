import type pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  col,
  heldForSomeoneElse,
  inGoodStanding,
  ownLiveHold,
  seatTakesBookings,
  withinUnpaidLimit,
} from '../../lib/booking-rule-sql';
import { announceAfterCommit } from '../../plugins/changes';
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
  /** The customer's unpaid-bookings rule: checked when set, with the parsed setting. */
  unpaidLimit: { limit: number; now: Date } | null;
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
  n: number;
  id: number | null;
  amount_cents: number | null;
  user_found: boolean;
  seat_active: boolean;
  held_for_other: boolean;
  within_unpaid_limit: boolean | null;
  user_name: PersonName | null;
  creator_name: PersonName | null;
  seqs: string[] | null;
  seats: number[] | null;
  announce_later: string;
};

const person = (alias: string) =>
  `json_build_object('email', ${alias}.email, 'firstName', ${alias}.first_name, 'lastName', ${alias}.last_name, 'racerName', ${alias}.racer_name)`;

/** A rule over the statement's own columns, as text (it has no parameters of its own). */
function text(rule: SQL): string {
  const { sql: rendered, params } = new PgDialect().sqlToQuery(rule);
  if (params.length) throw new Error('A booking rule took a value, not a column');
  return rendered;
}

/** The booking `alias` (input `i` or booked `b`) as the rules' seat-slot. */
const seatSlotOf = (alias: string) => ({
  seat: col(alias, 'calendar_id'),
  slot: col(alias, 'slot'),
  user: col(alias, 'user_id'),
  now: col(alias, 'now'),
});

/**
 * The booking statement, for any number of bookings at once (one JSON object each; `n` is a
 * booking's place among them). Per booking it reads what the checks and the answer need: the
 * booked user and the creator (names), and the booking rules, written once in
 * lib/booking-rule-sql.ts and rendered here over the input's columns: the seat still active, a
 * waitlist hold for someone else, the unpaid limit only where it applies (`unpaid_limit`, the
 * setting as the caller parsed it), club standing (the price is computed in JavaScript for both
 * cases; the statement picks one). Of the bookings that pass, one per seat-slot (the first asked)
 * is inserted, in seat and slot order (so two statements lock report rows and index entries in
 * the same order: no deadlock); the live unique index decides races with other statements (ON
 * CONFLICT DO NOTHING: the loser waits for the winner's commit, then inserts nothing).
 * Data-modifying CTEs claim each booker's own hold and store one change per booking; nothing is
 * written for a booking that is not made.
 */
export const BOOK_SEATS = `
with
input as (
  select * from json_to_recordset($1::json) as i(n int, calendar_id int, slot text,
    time timestamptz, user_id int, paid boolean, member_cents int, other_cents int,
    is_blackout boolean, notes text, created_by_id int, now timestamptz, unpaid_limit int)
),
checked as (
  select i.*,
    exists (select 1 from users u where u.id = i.user_id) as user_found,
    ${text(seatTakesBookings(col('i', 'calendar_id')))} as seat_active,
    ${text(heldForSomeoneElse(seatSlotOf('i')))} as held_for_other,
    -- Only where the rule applies (a CASE evaluates its subqueries only when taken): an account
    -- with thousands of bookings (a desk's walk-in account) would make every booking count them.
    case when i.unpaid_limit is not null then
      ${text(withinUnpaidLimit(col('i', 'user_id'), col('i', 'now'), sql.raw('1'), col('i', 'unpaid_limit')))}
    end as within_unpaid_limit,
    ${text(inGoodStanding(col('i', 'user_id')))} as member
  from input i
),
chosen as (
  select distinct on (calendar_id, slot) * from checked
  where (user_id is null or user_found) and seat_active and not held_for_other
    and within_unpaid_limit is not false
  order by calendar_id, slot, n
),
added as (
  insert into reservations
    (calendar_id, slot, time, user_id, paid, amount_cents, is_blackout, notes, created_by_id)
  select calendar_id, slot, time, user_id, paid,
    case when member then member_cents else other_cents end, is_blackout, notes, created_by_id
  from chosen order by calendar_id, slot
  on conflict (calendar_id, slot) where cancelled_at is null do nothing
  returning id, calendar_id, slot, amount_cents
),
booked as (
  select c.n, c.user_id, c.now, a.id, a.calendar_id, a.slot, a.amount_cents
  from added a join chosen c on c.calendar_id = a.calendar_id and c.slot = a.slot
),
claimed as (
  update waitlist_entries w set status = 'booked'
  from booked b
  where ${text(ownLiveHold('w', seatSlotOf('b')))}
  returning w.id
),
change as (
  insert into change_events (topic, ref_id)
  select 'reservations', calendar_id from booked order by calendar_id, slot
  returning seq, ref_id
),
changes as (select array_agg(seq order by seq) as seqs, array_agg(ref_id order by seq) as seats from change)
select c.n, b.id, b.amount_cents, c.user_found, c.seat_active, c.held_for_other,
  c.within_unpaid_limit,
  (select ${person('t')} from users t where t.id = c.user_id) as user_name,
  (select ${person('u')} from users u where u.id = c.created_by_id) as creator_name,
  -- The statement's changes once, on the first row (the rows are in the order asked).
  case when c.n = 0 then changes.seqs end as seqs, case when c.n = 0 then changes.seats end as seats,
  set_config('paddock.announce', 'after-commit', true) as announce_later
from checked c left join booked b on b.n = c.n cross join changes
order by c.n`;

/**
 * Lanes per pool: booking statements on the wire at once (Booker). Two since decision 0068:
 * larger groups cost PostgreSQL less per booking, and two keep a slow statement from holding
 * up every booking of the instance.
 */
const IN_FLIGHT = 2;
/** Bookings in one statement at most. */
const BATCH = 64;

type Pending = {
  b: SeatBooking;
  done: (outcome: SeatBookingOutcome) => void;
  failed: (error: unknown) => void;
};

/**
 * Group commit for bookings (decision 0060): IN_FLIGHT lanes per pool, each with at most one
 * booking statement on the wire; the bookings asked for while it runs go together into its next,
 * one statement and one commit for all. A lone booking goes at once. A booking's lane is its
 * seat's (seat id modulo the lanes), so two lanes never wait for each other on a seat's report
 * row or slot (which would make them take turns); a booking under the unpaid rule goes to its
 * customer's lane instead, where two of the same customer's never share a statement (each must
 * count the other) and never run at once. If a shared statement fails (a deadlock, a value the
 * database refuses), each of its bookings is made again on its own, so one booking's error is
 * never another's.
 */
class Booker {
  private readonly lanes = Array.from({ length: IN_FLIGHT }, () => ({
    queue: [] as Pending[],
    busy: false,
  }));

  constructor(private readonly db: Db) {}

  book(b: SeatBooking): Promise<SeatBookingOutcome> {
    const key = b.unpaidLimit && b.userId !== null ? b.userId : b.calendarId;
    const lane = this.lanes[Math.abs(key) % IN_FLIGHT];
    return new Promise((done, failed) => {
      lane.queue.push({ b, done, failed });
      if (!lane.busy) void this.run(lane);
    });
  }

  private async run(lane: Lane) {
    lane.busy = true;
    try {
      while (lane.queue.length) {
        const batch = take(lane.queue);
        if (batch.length === 1) {
          await settle(batch[0], this.db);
          continue;
        }
        let made: Made | null = null;
        try {
          made = await runStatement(
            this.db,
            batch.map((p) => p.b),
          );
        } catch {
          // Each on its own below.
        }
        if (made) answerAfter(batch, made);
        else await Promise.all(batch.map((p) => settle(p, this.db)));
      }
    } finally {
      lane.busy = false;
    }
  }
}

type Lane = { queue: Pending[]; busy: boolean };

/** The next statement's bookings from a lane's queue, in the order asked. */
function take(queue: Pending[]): Pending[] {
  const batch: Pending[] = [];
  const limited = new Set<number | null>();
  for (let i = 0; i < queue.length && batch.length < BATCH;) {
    const p = queue[i];
    if (p.b.unpaidLimit) {
      if (limited.has(p.b.userId)) {
        i++;
        continue;
      }
      limited.add(p.b.userId);
    }
    batch.push(p);
    queue.splice(i, 1);
  }
  return batch;
}

/** One booking in a statement of its own; its error is its own. */
async function settle(p: Pending, db: Db) {
  let made: Made;
  try {
    made = await runStatement(db, [p.b]);
  } catch (error) {
    p.failed(error);
    return;
  }
  answerAfter([p], made);
}

/**
 * Each booker of a statement gets its outcome once the statement's announcement went out
 * (answered only after announced, decision 0053). The lane does not wait for that: its next
 * statement goes as soon as this one committed (the Announcer keeps the announcements in the
 * order the statements finished).
 */
function answerAfter(batch: Pending[], made: Made) {
  void made.announced.then(() => batch.forEach((p, i) => p.done(made.outcomes[i])));
}

const bookers = new WeakMap<Db, Booker>();

/**
 * Books one seat-slot: atomic and in one statement without a transaction (decisions 0046,
 * 0060), possibly together with other bookings asked for at the same moment (Booker). The
 * statement checks the user, the seat still active, a waitlist hold for someone else, the
 * unpaid-bookings limit and club standing (the fee), claims the caller's own hold, and stores
 * the change for the change feed. Nothing is written unless the booking is. The booking is
 * announced after its commit (decision 0053) and answered only after that, so `db` is never a
 * transaction.
 */
export function bookSeat(db: Db, b: SeatBooking): Promise<SeatBookingOutcome> {
  let booker = bookers.get(db);
  if (!booker) bookers.set(db, (booker = new Booker(db)));
  return booker.book(b);
}

/** A statement's outcomes (in the order asked), and when what it booked was announced. */
type Made = { outcomes: SeatBookingOutcome[]; announced: Promise<void> };

/**
 * Runs the booking statement for `bookings` and starts announcing what it booked (resolves
 * once the statement committed). A named prepared statement: each pool connection parses and
 * plans it once, then only binds and executes it (decision 0060).
 */
async function runStatement(db: Db, bookings: SeatBooking[]): Promise<Made> {
  const result = await (db as Db & { $client: pg.Pool }).$client.query<Outcome>({
    name: 'paddock_book_seats',
    text: BOOK_SEATS,
    // One JSON parameter: its row count is unknown to the planner whether the plan is custom
    // or generic, so PostgreSQL soon keeps the generic plan and stops planning (arrays let each
    // custom plan see their length, and it planned every call).
    values: [
      JSON.stringify(
        bookings.map((b, n) => ({
          n,
          calendar_id: b.calendarId,
          slot: b.slot,
          time: b.time.toISOString(),
          user_id: b.userId,
          paid: b.paid,
          member_cents: b.amountCents.member,
          other_cents: b.amountCents.other,
          is_blackout: b.isBlackout,
          notes: b.notes,
          created_by_id: b.createdById,
          now: (b.unpaidLimit?.now ?? new Date()).toISOString(),
          unpaid_limit: b.unpaidLimit?.limit ?? null,
        })),
      ),
    ],
  });
  const rows = result.rows;
  const seqs = rows[0]?.seqs ?? [];
  const seats = rows[0]?.seats ?? [];
  // announceAfterCommit never rejects: the writes committed whatever becomes of it.
  const announced = seqs.length
    ? announceAfterCommit(db, {
        changes: seqs.map((seq, i) => ({ seq: Number(seq), topic: 'reservations', id: seats[i] })),
        cache: seats.map((seat) => `s:${seat}`),
      })
    : Promise.resolve();
  return { outcomes: bookings.map((b, i) => outcomeOf(b, rows[i])), announced };
}

function outcomeOf(b: SeatBooking, row: Outcome): SeatBookingOutcome {
  if (row.id !== null && row.amount_cents !== null) {
    return {
      booked: true,
      id: row.id,
      amountCents: row.amount_cents,
      user: row.user_name,
      creator: row.creator_name,
    };
  }
  const limitOf = b.unpaidLimit?.limit ?? 0;
  if (b.userId !== null && !row.user_found)
    return { booked: false, reason: 'no-user', limit: limitOf };
  if (!row.seat_active) return { booked: false, reason: 'no-seat', limit: limitOf };
  if (row.held_for_other) return { booked: false, reason: 'taken', limit: limitOf };
  if (row.within_unpaid_limit === false)
    return { booked: false, reason: 'unpaid-limit', limit: limitOf };
  return { booked: false, reason: 'taken', limit: limitOf };
}
