import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * The booking rules' SQL, each written once (issue 32, decision 0103). The booking statement
 * (book-seat.ts) renders them over its input rows' columns; the services' queries (the seat
 * lookup, the waitlist's claim, the unpaid count, the club standing) build them over their
 * parameters or columns. booking-rules.ts lists them with the ways in they must hold on.
 *
 * An input is anything drizzle's `sql` takes: a column (`calendars.id`), a placeholder, a value
 * (`sql\`${id}\``) or a hand-written alias's column (`sql.raw('i.calendar_id')`). Each rule's
 * own tables go under a `rule_…` alias, so an outer query's names are never shadowed.
 */
export type RuleInput = SQLWrapper;

/**
 * `exists (select …)` looked up row by row through the table's index. Without `offset 0`
 * PostgreSQL may read the whole table into a hash once per statement instead, which it prices
 * for the booking statement's input (json_to_recordset: 100 rows, it assumes), and a booking is
 * usually one: on a chain's 10 000 club memberships that was 3.6 ms a booking (issue 33,
 * decision 0110). The offset keeps the subquery from being turned into a hashable join.
 */
const probe = (query: SQL): SQL<boolean> => sql`exists (${query} offset 0)`;

/** A hand-written alias's column (`col('i', 'slot')` → `i.slot`). */
export const col = (alias: string, column: string) => sql.raw(`${alias}.${column}`);

/** Seat active: a seat that is no longer active takes no booking. */
export const seatTakesBookings = (seat: RuleInput): SQL<boolean> =>
  probe(sql`select 1 from calendars rule_seat where rule_seat.id = ${seat} and rule_seat.active`);

/** A seat-slot for someone (null: a blackout, nobody's) at an instant. */
export type SeatSlotFor = { seat: RuleInput; slot: RuleInput; user: RuleInput; now: RuleInput };

/** The waitlist table as a Drizzle query names it, for `liveOffer` there. */
export const WAITLIST_ENTRIES = '"waitlist_entries"';

/**
 * A waitlist offer whose hold has not lapsed, as a condition on a waitlist_entries `alias`
 * (WAITLIST_ENTRIES in a Drizzle query on the table): the seat it holds is the offered
 * one's, and taken for everyone else (availability, the planner and joining the waitlist ask too).
 */
export const liveOffer = (alias: string, now: RuleInput): SQL =>
  sql`${col(alias, 'status')} = 'offered' and ${col(alias, 'hold_until')} > ${now}`;

/** A live offer holding the seat-slot, as a condition on `alias` (waitlist_entries). */
const liveHold = (alias: string, at: SeatSlotFor) =>
  sql`${liveOffer(alias, at.now)}
    and ${col(alias, 'slot')} = ${at.slot} and ${col(alias, 'held_calendar_id')} = ${at.seat}`;

/** Waitlist hold: a seat-slot offered to someone on the waitlist is taken for everyone else. */
export const heldForSomeoneElse = (at: SeatSlotFor): SQL<boolean> =>
  probe(sql`select 1 from waitlist_entries rule_hold where ${liveHold('rule_hold', at)}
    and rule_hold.user_id is distinct from ${at.user}`);

/** The booker's own live hold on the seat-slot (booking it ends the hold): a condition on `alias`. */
export const ownLiveHold = (alias: string, at: SeatSlotFor): SQL =>
  sql`${liveHold(alias, at)} and ${col(alias, 'user_id')} = ${at.user}`;

/**
 * Unpaid and still owed, as a condition on a reservations `alias`: not a booking of a checkout
 * still being charged (the charge may exist, at the provider at least) or waiting for its 3-D
 * Secure challenge (decision 0085), or whose checkout charge exists. Such a booking is paid by
 * that charge when the checkout ends (its retry, a cancel, or the money repair: decision 0072);
 * counting it would charge it twice.
 */
export const stillOwedBy = (alias: string): SQL =>
  sql`${col(alias, 'paid')} = false and not exists (
  select 1 from checkouts rule_checkout where rule_checkout.id = ${col(alias, 'checkout_id')}
    and (rule_checkout.status in ('charging', 'awaiting_authentication') or exists (
      select 1 from charges rule_charge
      where rule_charge.idempotency_key = 'checkout-' || rule_checkout.id
        and rule_charge.errors = '')))`;

/** The customer's live, unpaid bookings still to come (blackouts and past slots aside). */
export const unpaidFutureBookings = (user: RuleInput, now: RuleInput): SQL<number> =>
  sql`(select count(*)::int from reservations rule_unpaid
    where rule_unpaid.user_id = ${user} and ${stillOwedBy('rule_unpaid')}
      and not rule_unpaid.is_blackout and rule_unpaid.cancelled_at is null
      and rule_unpaid.time > ${now})`;

/**
 * Unpaid limit: the customer may add `adding` unpaid bookings and still hold at most `limit`
 * (the parsed setting, plugins/settings.ts: the statement never reads the stored JSON itself).
 */
export const withinUnpaidLimit = (
  user: RuleInput,
  now: RuleInput,
  adding: RuleInput,
  limit: RuleInput,
): SQL<boolean> => sql`${unpaidFutureBookings(user, now)} + ${adding} <= ${limit}`;

/** Club standing: a member in good standing (an active membership) pays no booking fee. */
export const inGoodStanding = (user: RuleInput): SQL<boolean> =>
  probe(sql`select 1 from club_memberships rule_member
    where rule_member.user_id = ${user} and rule_member.status = 'active'`);
