import { eq, sql } from 'drizzle-orm';
import { cards } from '../../db/schema/payments';
import { checkouts, type CheckoutResult } from '../../db/schema/booking';
import type { Db } from '../../db/client';
import { executeNamed } from '../../db/named';
import { preparedPer } from '../../db/prepared';
import { ANNOUNCE_AFTER_COMMIT, announceAfterCommit, type Change } from '../../plugins/changes';
import type { CardRecord, Queryable } from '../../plugins/payments/charge-card';
import type { PersonName } from '../reservations/reservations.repo';
import type { CheckoutRow } from './checkout.repo';
import type { StoredFacts } from './send-confirmation';

// The statements of a checkout's quick path (decision 0046): each is atomic on its own, so the
// path needs no transaction, and each reads in the same round trip what the next steps need.

export type ProcessingContext = {
  checkout: CheckoutRow;
  card: CardRecord | null;
  customer: PersonName | null;
  clubMember: boolean;
  settings: { key: string; value: unknown }[];
};

/** The checkout with its customer's card, name, club standing and the venue settings. */
/** Qualified: inside the subqueries below a bare column name would be theirs. */
const owner = sql.raw('"checkouts"."user_id"');

const readQuery = preparedPer((db: Queryable) =>
  db
    .select({
      checkout: checkouts,
      card: sql<CardRecord | null>`(
        select json_build_object('userId', k.user_id, 'provider', k.provider,
          'customerRef', k.customer_ref, 'paymentMethodRef', k.payment_method_ref,
          'brand', k.brand, 'last4', k.last4, 'expMonth', k.exp_month, 'expYear', k.exp_year,
          'postalCode', k.postal_code, 'createdAt', k.created_at)
        from ${cards} k where k.user_id = ${owner} and k.provider = ${sql.placeholder('provider')})`,
      customer: sql<PersonName | null>`(
        select json_build_object('email', u.email, 'firstName', u.first_name,
          'lastName', u.last_name, 'racerName', u.racer_name)
        from users u where u.id = ${owner})`,
      clubMember: sql<boolean>`exists (
        select 1 from club_memberships m where m.user_id = ${owner} and m.status = 'active')`,
      settings: sql<{ key: string; value: unknown }[]>`(
        select coalesce(json_agg(json_build_object('key', s.key, 'value', s.value)), '[]')
        from settings s)`,
    })
    .from(checkouts)
    .where(eq(checkouts.id, sql.placeholder('id')))
    // Planned once per connection (decision 0062).
    .prepare('checkout_for_processing'),
);

export async function readForProcessing(
  db: Queryable,
  id: number,
  provider: string,
): Promise<ProcessingContext | null> {
  const [row] = await readQuery(db).execute({ id, provider });
  if (!row) return null;
  const card = row.card && { ...row.card, createdAt: new Date(row.card.createdAt) };
  return { ...row, card };
}

export type ClaimItem = {
  calendarId: number;
  slot: string;
  time: Date;
  amountCents: number;
  bookingFeeCents: number;
};

/** A select-list item: this statement's transaction commits without waiting for its flush. */
const FLUSH_LATER = sql`, set_config('synchronous_commit', 'off', true) as flush_later`;

/** What a statement leaves to announce after its commit (announceAfterCommit). */
export type Notices = { changes: Change[]; cache: string[] };

export type Claim =
  | { claimed: true; ids: number[]; notices: Notices }
  | { claimed: false; heldForOther: boolean; activeSeats: number };

/**
 * Moves a quoted checkout to `charging` and books its seats, in one statement: nothing is
 * written unless all of it is. A seat taken meanwhile breaks the live (seat, slot) unique index
 * and fails the whole statement (the caller's 400); a seat held for someone else on the
 * waitlist, a seat no longer active, or a checkout already claimed by a concurrent call (the
 * row lock makes it wait, then it sees `charging`) claims nothing. The customer's own holds are
 * claimed, and the change is stored per seat; the caller announces it after the commit
 * (decision 0053), with the payment's when it can (one announcement, decision 0059).
 */
export async function claimAndBook(
  db: Db,
  checkout: { id: number; userId: number },
  items: ClaimItem[],
  now: Date,
  /**
   * Commit without waiting for the WAL flush (decision 0062): only when the caller's next
   * statement that commits is the charge in this same database, whose flush makes this one
   * durable too (WAL is flushed in order), and nothing outside the database acts on the claim
   * before that. A crash before it loses both: the checkout is `quoted` again, nothing charged.
   */
  opts: { flushLater?: boolean } = {},
): Promise<Claim> {
  const seats = [...new Set(items.map((i) => i.calendarId))];
  const rows = JSON.stringify(
    items.map((i) => ({
      calendar_id: i.calendarId,
      slot: i.slot,
      time: i.time.toISOString(),
      amount_cents: i.amountCents,
      booking_fee_cents: i.bookingFeeCents,
    })),
  );
  const at = now.toISOString();
  const [row] = await executeNamed<{
    added: number[] | null;
    held_for_other: boolean;
    active_seats: number;
    changes: { seq: number; seat: number }[] | null;
  }>(
    db,
    sql`
    with
    item as (
      select * from jsonb_to_recordset(${rows}::jsonb)
        as i(calendar_id int, slot text, "time" timestamptz, amount_cents int, booking_fee_cents int)
    ),
    held as (
      select 1 from waitlist_entries w join item i
        on w.held_calendar_id = i.calendar_id and w.slot = i.slot
      where w.status = 'offered' and w.hold_until > ${at}::timestamptz
        and w.user_id <> ${checkout.userId}::int
    ),
    seat as (
      select count(*)::int as n from calendars
      where id in (select calendar_id from item) and active
    ),
    claimed as (
      update checkouts set status = 'charging'
      where id = ${checkout.id}::int and user_id = ${checkout.userId}::int
        and status = 'quoted' and result is null
        and not exists (select 1 from held) and (select n from seat) = ${seats.length}::int
      returning id
    ),
    added as (
      insert into reservations (calendar_id, slot, time, user_id, paid, amount_cents,
        booking_fee_cents, created_by_id, checkout_id)
      select i.calendar_id, i.slot, i."time", ${checkout.userId}::int, false, i.amount_cents,
        i.booking_fee_cents, ${checkout.userId}::int, claimed.id
      from claimed, item i
      returning id, calendar_id, slot, time
    ),
    own_holds as (
      update waitlist_entries w set status = 'booked'
      from added a
      where w.held_calendar_id = a.calendar_id and w.slot = a.slot and w.status = 'offered'
        and w.hold_until > ${at}::timestamptz and w.user_id = ${checkout.userId}::int
      returning w.id
    ),
    change as (
      insert into change_events (topic, ref_id)
      select 'reservations', calendar_id from (select distinct calendar_id from added) s
      returning seq, ref_id
    )
    select
      (select array_agg(id order by time, calendar_id) from added) as added,
      exists (select 1 from held) as held_for_other,
      (select n from seat) as active_seats,
      (select json_agg(json_build_object('seq', seq, 'seat', ref_id)) from change) as changes,
      ${ANNOUNCE_AFTER_COMMIT} as announce_later${opts.flushLater ? FLUSH_LATER : sql``}`,
  );
  if (row.added) {
    const notices: Notices = {
      changes: (row.changes ?? []).map((c) => ({ seq: c.seq, topic: 'reservations', id: c.seat })),
      cache: (row.changes ?? []).map((c) => `s:${c.seat}`),
    };
    return { claimed: true, ids: row.added.map(Number), notices };
  }
  return { claimed: false, heldForOther: row.held_for_other, activeSeats: row.active_seats };
}

/**
 * The one finish of a paid checkout, whichever path charged it (decision 0072): marks the
 * checkout's reservations paid by `chargeId`, stores the answer and the confirmation owed
 * (decision 0059), in one statement, unless a concurrent call stored one first: then that
 * one is the answer (null if it committed after this statement began; the caller reads it
 * again). The claim's notices (`announce`) go out with this statement's, after its commit.
 */
export async function finishPaid(
  db: Db,
  id: number,
  paid: {
    chargeId: number;
    chargeRef: string | null;
    result: CheckoutResult;
    /** What the confirmation owed says, when the caller knows it; null: the sender reads it. */
    confirmation: StoredFacts | null;
    /** The claim's notices, announced with these (after this statement's commit). */
    announce?: Notices;
  },
): Promise<{ finishedNow: boolean; stored: CheckoutResult | null }> {
  const [row] = await executeNamed<{
    done: number;
    stored: CheckoutResult | null;
    seats: number[] | null;
  }>(
    db,
    sql`
    with
    done as (
      update checkouts set status = 'paid', result = ${JSON.stringify(paid.result)}::jsonb,
        charge_ref = ${paid.chargeRef}, processed_at = now()
      where id = ${id}::int and result is null
      returning id
    ),
    marked as (
      update reservations set paid = true, charge_id = ${paid.chargeId}::int, updated_at = now()
      where checkout_id = ${id}::int and cancelled_at is null and not paid
        and exists (select 1 from done)
      returning calendar_id
    ),
    owed as (
      insert into receipts_owed (checkout_id, facts)
      select id, ${paid.confirmation ? JSON.stringify(paid.confirmation) : null}::jsonb from done
      on conflict do nothing)
    select (select count(*)::int from done) as done,
      (select result from checkouts where id = ${id}::int) as stored,
      (select array_agg(distinct calendar_id) from marked) as seats,
      ${ANNOUNCE_AFTER_COMMIT} as announce_later`,
  );
  await announceAfterCommit(db, {
    changes: paid.announce?.changes,
    cache: [...(paid.announce?.cache ?? []), ...(row.seats ?? []).map((seat) => `s:${seat}`)],
  });
  return row.done > 0
    ? { finishedNow: true, stored: paid.result }
    : { finishedNow: false, stored: row.stored };
}
