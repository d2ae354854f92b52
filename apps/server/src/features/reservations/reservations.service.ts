import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import {
  SLOT_TAKEN_MESSAGE,
  type Reservation,
  type ReservationCreate,
  type ReservationUpdate,
} from '@paddock/contract/reservations';
import type { Db } from '../../db/client';
import { priceBooking } from '../../lib/pricing';
import {
  bookingWindow,
  findSlot,
  isoInZone,
  isValidSlotKey,
  slotKeyAt,
  SLOT_MINUTES,
  type Role,
  type Slot,
} from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import {
  isClubMemberInGoodStanding,
  paySessionWithSubscription,
} from '../../plugins/club-membership';
import { assertMinimumStay, assertRunsHold, type StayCheck } from './minimum-stay';
import { Forbidden, NotFound, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import type { Queryable } from '../../plugins/payments/charge-card';
import * as repo from './reservations.repo';
import { claimHeldSeats } from '../waitlist/waitlist.service';
import { publishChange, pruneChanges } from '../../plugins/changes';
import { getSettings } from '../../plugins/settings';
import {
  heldToUnpaidLimit,
  unpaidLimitMessage,
  unpaidLimitOf,
  type SettingsLookup,
} from './unpaid-limit';
import { bookSeat } from './book-seat';
import type { SeatLookup } from './seat-cache';
import { roleOf } from './role-of';

// Still importable from here, where its callers look for it.
export { roleOf };

/** Racer name, else full name, else e-mail (the spec's display-name fallback). */
export function displayName(person: repo.PersonName | null): string | null {
  if (!person) return null;
  const full = `${person.firstName} ${person.lastName}`.trim();
  return person.racerName || full || person.email;
}

/** `time`, when the caller already has it as isoInZone gives it (a slot's `time`). */
export function toReservation(rows: repo.ReservationRow[], time?: string): Reservation {
  const first = rows[0];
  return {
    id: first.id,
    time: time ?? isoInZone(first.time, first.timezone),
    calendar: first.calendarId,
    slot: first.slot,
    subscription: first.subscriptionId,
    paid: rows.every((r) => r.paid),
    paid_with_credits: first.paidWithCredits,
    calendar_name: first.calendarName,
    location: first.locationId,
    timezone: first.timezone,
    location_name: first.locationName,
    currency: first.currency,
    user: first.userId,
    user_display_name: first.userId === null ? null : displayName(first.user),
    is_blackout: first.isBlackout,
    notes: first.notes,
    created_by: first.createdById,
    created_by_name: first.createdById === null ? null : displayName(first.creator),
    checkout: first.checkoutId,
    amount_cents: rows.reduce((sum, r) => sum + r.amountCents, 0),
    duration_minutes: rows.length * SLOT_MINUTES,
    reservation_ids: rows.map((r) => r.id),
  };
}

export async function reservationsByIds(db: Queryable, ids: number[]): Promise<Reservation[]> {
  const rows = await repo.findRowsByIds(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [toReservation([byId.get(id)!])] : []));
}

type ListQuery = PaginationQuery & {
  user?: number;
  calendar?: number;
  future?: boolean;
  group_base?: boolean;
  slot__startswith?: string;
  is_blackout?: boolean;
  paid?: boolean;
  ordering: 'slot' | '-slot' | 'time' | '-time';
};

/** Staff see everyone's; anyone else only their own, whatever `user` says. */
export async function listReservations(
  db: Db,
  caller: AuthUser,
  query: ListQuery,
  now = new Date(),
): Promise<Paginated<Reservation>> {
  const filter: repo.ListFilter = {
    userId: roleOf(caller) === 'staff' ? query.user : caller.id,
    calendarId: query.calendar,
    endsAfter: query.future ? now : undefined,
    slotPrefix: query.slot__startswith,
    isBlackout: query.is_blackout,
    paid: query.paid,
  };
  const descending = query.ordering.startsWith('-');
  if (!query.group_base) {
    return paginate(
      query,
      () => repo.countReservations(db, filter),
      async (limit, offset) =>
        (await repo.pageReservations(db, filter, descending, limit, offset)).map((r) =>
          toReservation([r]),
        ),
    );
  }
  return paginate(
    query,
    () => repo.countGroups(db, filter),
    async (limit, offset) => {
      const groups = await repo.pageGroups(db, filter, descending, limit, offset);
      const rows = new Map((await repo.findRowsByIds(db, groups.flat())).map((r) => [r.id, r]));
      return groups.map((ids) => toReservation(ids.map((id) => rows.get(id)!)));
    },
  );
}

async function visibleRow(db: Queryable, caller: AuthUser, id: number) {
  const row = await repo.findLiveRow(db, id);
  // Someone else's reservation does not exist for a customer.
  if (!row || (roleOf(caller) !== 'staff' && row.userId !== caller.id)) throw new NotFound();
  return row;
}

export async function getReservation(db: Db, caller: AuthUser, id: number): Promise<Reservation> {
  return toReservation([await visibleRow(db, caller, id)]);
}

export type SeatSlot = { seat: repo.SeatForBooking; slot: Slot };

/**
 * Checks that each (calendar, slot or time) is a real, bookable half-hour of an active seat for
 * this role, and returns the seat and the slot with its instant. Errors name `field(i, name)`.
 */
export async function resolveSeatSlots(
  db: Queryable,
  items: { calendar: number; slot?: string; time?: string }[],
  role: Role,
  now: Date,
  field: (index: number, name: string) => string,
  stay: StayCheck,
  lookup: SeatLookup = (ids) => repo.findActiveSeats(db, ids),
): Promise<SeatSlot[]> {
  const seats = new Map(
    (await lookup([...new Set(items.map((i) => i.calendar))])).map((s) => [s.id, s]),
  );
  const resolved = items.map((item, index) => {
    const seat = seats.get(item.calendar);
    if (!seat)
      throw ValidationError.field(
        field(index, 'calendar'),
        `Invalid pk "${item.calendar}" - object does not exist.`,
      );
    const zone = seat.location.timezone;
    let key = item.slot;
    if (key === undefined) {
      if (item.time === undefined)
        throw ValidationError.field(field(index, 'slot'), 'This field is required.');
      key = slotKeyAt(new Date(item.time), zone) ?? undefined;
      if (!key) throw ValidationError.field(field(index, 'time'), 'Choose a time at :00 or :30.');
    }
    if (!isValidSlotKey(key))
      throw ValidationError.field(field(index, 'slot'), 'Enter a real date and time.');
    const slot = findSlot(
      {
        timezone: zone,
        openingHours: seat.location.openingHours,
        specialHours: seat.location.specialHours,
      },
      key,
    );
    if (!slot)
      throw ValidationError.field(field(index, 'slot'), 'The venue is not open at this time.');
    if (item.time !== undefined && new Date(item.time).getTime() !== slot.startMs)
      throw ValidationError.field(field(index, 'time'), 'This time does not match the slot.');
    if (role !== 'staff' && slot.startMs <= now.getTime())
      throw ValidationError.field(field(index, 'slot'), 'This time has already started.');
    const window = bookingWindow(role, zone, now);
    if (key.slice(0, 10) < window.first)
      throw ValidationError.field(
        field(index, 'slot'),
        `Reservations can be made from ${window.first}.`,
      );
    if (key.slice(0, 10) > window.last)
      throw ValidationError.field(
        field(index, 'slot'),
        `Reservations can be made up to ${window.last}.`,
      );
    return { seat, slot };
  });
  await assertMinimumStay(db, resolved, stay, field);
  return resolved;
}

/** Inserts reservations; a seat-slot already taken (the unique index) is the spec's 400. */
export async function insertReservations(
  db: Queryable,
  values: repo.ReservationInsert[],
): Promise<number[]> {
  try {
    // A seat held for the first one on its waitlist is taken for everyone else.
    await claimHeldSeats(
      db,
      values.map((v) => ({ calendarId: v.calendarId, slot: v.slot, userId: v.userId ?? null })),
    );
    return await repo.insertReservations(db, values);
  } catch (error) {
    if (repo.isSlotTaken(error)) throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
    throw error;
  }
}

/** One seat-slot as a single booking prices it: total, its tax and its fee. */
export function slotPricing(seat: repo.SeatForBooking, clubMember: boolean) {
  const pricing = priceBooking({
    items: [{ costCents: seat.costCents }],
    bookingFeeCents: seat.location.bookingFeeCents,
    bookingFeesThreshold: seat.location.bookingFeesThreshold,
    salesTaxRatePercent: seat.location.salesTaxRatePercent,
    clubMember,
    voucherBalanceCents: null,
    clubDiscountPercent: 0,
  });
  return {
    totalCents: pricing.totalCents,
    taxCents: pricing.salesTaxCents,
    feeCents: pricing.lines[0].feeCents,
  };
}
export type SlotPricing = ReturnType<typeof slotPricing>;

/** What one slot costs when booked on its own (seat, fee unless waived, tax). */
export function slotPrice(seat: repo.SeatForBooking, clubMember: boolean): number {
  return slotPricing(seat, clubMember).totalCents;
}

/** One seat-slot for this user as a single booking prices it (their club standing read). */
export async function singleSlotPricing(db: Queryable, seat: repo.SeatForBooking, userId: number) {
  return slotPricing(seat, await isClubMemberInGoodStanding(db, userId));
}

export async function singleSlotPrice(db: Queryable, seat: repo.SeatForBooking, userId: number) {
  return (await singleSlotPricing(db, seat, userId)).totalCents;
}

const sameField = (_index: number, name: string) => name;

/** A reservation's subscription is set when it is booked; an edit may only repeat it. */
function assertSubscription(subscription: number | null | undefined, current: number | null) {
  if (subscription !== undefined && subscription !== null && subscription !== current)
    throw ValidationError.field(
      'subscription',
      `Invalid pk "${subscription}" - object does not exist.`,
    );
}

function assertCustomerFields(caller: AuthUser, body: ReservationUpdate) {
  if (roleOf(caller) === 'staff') return;
  const staffOnly =
    body.is_blackout === true ||
    body.paid !== undefined ||
    (body.notes !== undefined && body.notes !== '') ||
    (body.user !== undefined && body.user !== caller.id);
  if (staffOnly) throw new Forbidden();
}

/**
 * Owes, in the booking's transaction, the confirmation of a booking paid with a club
 * subscription's credit; it is sent after the commit (decision 0102). The checkout feature's
 * `oweBookingConfirmation` is passed in by the route (this feature does not import the checkout,
 * which imports it): the one owed confirmation every paid booking sends.
 */
export type ConfirmPaidBooking = (
  tx: Queryable,
  booking: {
    reference: string;
    userId: number;
    locationId: number;
    totalCents: number;
    items: { calendarId: number; time: string }[];
    reservationIds: number[];
    payment: {
      by: 'club_credit';
      seatsCents: number;
      feesCents: number;
      taxCents: number;
      voucher: null;
      credits: null;
    };
  },
) => Promise<void>;

/**
 * A customer books an unpaid seat for themselves (paid later: checkout, capture or staff).
 * Staff may book for any user, mark paid, or black out a seat (no user, notes). Without a
 * subscription, the booking is one statement (bookSeat, decision 0046); `seats` answers the seat
 * and its location, from memory where the request may (SeatCache).
 */
export async function createReservation(
  db: Db,
  caller: AuthUser,
  body: ReservationCreate,
  now = new Date(),
  seats?: SeatLookup,
  confirm?: ConfirmPaidBooking,
  settings: SettingsLookup = () => getSettings(db),
): Promise<Reservation> {
  assertCustomerFields(caller, body);
  const role = roleOf(caller);
  const blackout = body.is_blackout === true;
  if (blackout && body.user) throw ValidationError.field('user', 'A blackout has no user.');
  const subscriptionId = body.subscription ?? null;
  if (blackout && subscriptionId !== null)
    throw ValidationError.field('subscription', 'A blackout has no subscription.');
  const userId = blackout ? null : (body.user ?? caller.id);
  if (subscriptionId !== null)
    return createWithSubscription(db, caller, body, now, userId!, confirm);
  const stay: StayCheck = blackout ? 'blackout' : { userId };
  const limited = userId !== null && !blackout && body.paid !== true && heldToUnpaidLimit(caller);
  // The setting is read beside the seat (from memory where the request may: SettingsCache).
  const [[{ seat, slot }], limit] = await Promise.all([
    resolveSeatSlots(db, [body], role, now, sameField, stay, seats),
    limited ? unpaidLimitOf(settings) : null,
  ]);
  const outcome = await bookSeat(db, {
    calendarId: seat.id,
    slot: slot.slot,
    time: new Date(slot.startMs),
    userId,
    paid: blackout ? false : (body.paid ?? false),
    amountCents:
      userId === null
        ? { member: 0, other: 0 }
        : { member: slotPrice(seat, true), other: slotPrice(seat, false) },
    isBlackout: blackout,
    notes: body.notes ?? '',
    createdById: caller.id,
    unpaidLimit: limit === null ? null : { limit, now },
  });
  if (!outcome.booked) {
    if (outcome.reason === 'no-user')
      throw ValidationError.field('user', `Invalid pk "${userId}" - object does not exist.`);
    if (outcome.reason === 'no-seat')
      throw ValidationError.field('calendar', `Invalid pk "${seat.id}" - object does not exist.`);
    if (outcome.reason === 'unpaid-limit')
      throw ValidationError.nonField(unpaidLimitMessage(outcome.limit));
    throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
  }
  await pruneChanges(db);
  return toReservation(
    [
      freshRow(seat, {
        id: outcome.id,
        slot: slot.slot,
        time: new Date(slot.startMs),
        userId,
        paid: blackout ? false : (body.paid ?? false),
        amountCents: outcome.amountCents,
        isBlackout: blackout,
        notes: body.notes ?? '',
        createdById: caller.id,
        checkoutId: null,
        user: outcome.user,
        creator: outcome.creator,
      }),
    ],
    // The slot's instant in the seat's zone, worked out with the day's slots (slots.test.ts).
    slot.time,
  );
}

export type FreshFields = Pick<
  repo.ReservationRow,
  | 'id'
  | 'slot'
  | 'time'
  | 'userId'
  | 'paid'
  | 'amountCents'
  | 'isBlackout'
  | 'notes'
  | 'createdById'
  | 'checkoutId'
  | 'user'
  | 'creator'
>;

/** A reservation just written, as a row, from what its writer knows (no read back). */
export function freshRow(seat: repo.SeatForBooking, fields: FreshFields): repo.ReservationRow {
  const location = seat.location;
  return {
    ...fields,
    calendarId: seat.id,
    subscriptionId: null,
    paidWithCredits: false,
    // What this path writes: no fee or tax split (the desk's bookFor stores its own).
    bookingFeeCents: 0,
    taxCents: 0,
    attendance: null,
    cancelledAt: null,
    calendarName: seat.name,
    locationId: location.id,
    timezone: location.timezone,
    currency: location.currency,
    locationName: location.name,
    locationAddress: location.address,
  };
}

/** A club member's booking paid with their subscription: a transaction of several steps. */
async function createWithSubscription(
  db: Db,
  caller: AuthUser,
  body: ReservationCreate,
  now: Date,
  userId: number,
  confirm?: ConfirmPaidBooking,
): Promise<Reservation> {
  if (userId !== caller.id && !(await repo.userExists(db, userId)))
    throw ValidationError.field('user', `Invalid pk "${userId}" - object does not exist.`);
  const [{ seat, slot }] = await resolveSeatSlots(db, [body], roleOf(caller), now, sameField, {
    userId,
  });
  const subscriptionId = body.subscription!;
  const id = await db.transaction(async (tx) => {
    const [created] = await insertReservations(tx, [
      {
        calendarId: seat.id,
        slot: slot.slot,
        time: new Date(slot.startMs),
        userId,
        subscriptionId,
        // Booked with a subscription: paid with the member's credits, nothing owed.
        paid: true,
        amountCents: 0,
        isBlackout: false,
        notes: body.notes ?? '',
        createdById: caller.id,
      },
    ]);
    await paySessionWithSubscription(tx, {
      subscriptionId,
      userId,
      seatCostCents: seat.costCents,
      reservationId: created,
    });
    // Paid, so it owes its confirmation like a checkout (issue 30), sent after the commit.
    await confirm?.(tx, {
      reference: `Reservation #${created}`,
      userId,
      locationId: seat.location.id,
      totalCents: 0,
      items: [{ calendarId: seat.id, time: new Date(slot.startMs).toISOString() }],
      reservationIds: [created],
      // The receipt says what paid: the subscription, not "$0.00" alone (issue 41).
      payment: {
        by: 'club_credit',
        seatsCents: seat.costCents,
        feesCents: 0,
        taxCents: 0,
        voucher: null,
        credits: null,
      },
    });
    return created;
  });
  await publishChange(db, 'reservations', seat.id);
  return (await reservationsByIds(db, [id]))[0];
}

export const BLACKOUT_ON_BOOKED_MESSAGE =
  'A blackout can only be set on a free slot. Delete the reservation first.';

/**
 * The one road a customer's booking moves by (refunds/move-reservation.ts `moveReservation`: the
 * price difference, the minimum, the window, the mail and the audit row), passed in by the route:
 * that module imports this one, so this one cannot import it (decision 0086).
 */
export type MoveBooking = (
  id: number,
  to: { calendar: number; slot?: string; time?: string },
) => Promise<unknown>;

/**
 * Move a reservation (customers: their own, not started) or, for staff, change any field. A
 * driver's booking moves by the one move road (`move`, decision 0112); a blackout just moves.
 */
export async function updateReservation(
  db: Db,
  caller: AuthUser,
  id: number,
  body: ReservationUpdate,
  move: MoveBooking,
  now = new Date(),
): Promise<Reservation> {
  const row = await visibleRow(db, caller, id);
  assertCustomerFields(caller, body);
  assertSubscription(body.subscription, row.subscriptionId);
  const role = roleOf(caller);
  if (role !== 'staff' && row.time.getTime() <= now.getTime())
    throw ValidationError.nonField('Past reservations cannot be changed.');

  const changes = role === 'staff' ? await staffChanges(db, row, body) : {};
  const moving =
    (body.calendar !== undefined && body.calendar !== row.calendarId) ||
    (body.slot !== undefined && body.slot !== row.slot) ||
    (body.time !== undefined && new Date(body.time).getTime() !== row.time.getTime());
  if (moving) {
    const target = {
      calendar: body.calendar ?? row.calendarId,
      slot: body.slot ?? (body.time === undefined ? row.slot : undefined),
      time: body.time,
    };
    if (!row.isBlackout && row.userId !== null) await move(row.id, target);
    else {
      const [{ seat, slot }] = await resolveSeatSlots(
        db,
        [target],
        role,
        now,
        sameField,
        'blackout',
      );
      // A seat held for someone on the waitlist is taken for everyone else, moves included.
      await claimHeldSeats(db, [{ calendarId: seat.id, slot: slot.slot, userId: row.userId }]);
      Object.assign(changes, {
        calendarId: seat.id,
        slot: slot.slot,
        time: new Date(slot.startMs),
      });
    }
  }
  if (Object.keys(changes).length > 0) {
    // Who holds the half-hour changes (a blackout made a booking, a booking given to someone
    // else): the seat type's minimum holds for the run it makes and the one it leaves.
    const [current] = await repo.findRowsByIds(db, [id]);
    const userId = changes.isBlackout === true ? null : (changes.userId ?? current.userId);
    const wasUser = current.isBlackout ? null : current.userId;
    if (userId !== wasUser) {
      const at = { seatId: current.calendarId, startMs: current.time.getTime() };
      await assertRunsHold(
        db,
        {
          gone: wasUser === null ? [] : [{ id, userId: wasUser, ...at }],
          come: [{ userId, ...at }],
        },
        userId === null ? 'is_blackout' : 'user',
      );
    }
    try {
      await repo.updateReservation(db, id, changes);
      await publishChange(db, 'reservations', changes.calendarId ?? current.calendarId);
    } catch (error) {
      if (repo.isSlotTaken(error)) throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
      throw error;
    }
  }
  return (await reservationsByIds(db, [id]))[0];
}

/** What staff change besides the seat and time: blackout, user, paid, notes (checked first). */
async function staffChanges(
  db: Queryable,
  row: repo.ReservationRow,
  body: ReservationUpdate,
): Promise<Partial<repo.ReservationInsert>> {
  const changes: Partial<repo.ReservationInsert> = {};
  // A blackout goes on a free slot only: on a booked one it would erase the customer's
  // booking and what they owe (staff-side §5).
  if (body.is_blackout === true && !row.isBlackout && row.userId !== null)
    throw ValidationError.field('is_blackout', BLACKOUT_ON_BOOKED_MESSAGE);
  if (body.is_blackout !== undefined) changes.isBlackout = body.is_blackout;
  const blackout = body.is_blackout ?? row.isBlackout;
  if (blackout) {
    if (body.user) throw ValidationError.field('user', 'A blackout has no user.');
    changes.userId = null;
    changes.amountCents = 0;
  } else if (body.user !== undefined) {
    if (body.user === null) throw ValidationError.field('user', 'A reservation needs a user.');
    if (!(await repo.userExists(db, body.user)))
      throw ValidationError.field('user', `Invalid pk "${body.user}" - object does not exist.`);
    changes.userId = body.user;
  } else if (row.isBlackout && body.is_blackout === false) {
    throw ValidationError.field('user', 'A reservation needs a user.');
  }
  if (body.paid !== undefined) changes.paid = body.paid;
  if (body.notes !== undefined) changes.notes = body.notes;
  return changes;
}

/** Cancels: customers their own before it starts; staff any. The seat is free again. */
export async function deleteReservation(
  db: Db,
  caller: AuthUser,
  id: number,
  now = new Date(),
): Promise<void> {
  const row = await visibleRow(db, caller, id);
  if (roleOf(caller) !== 'staff' && row.time.getTime() <= now.getTime())
    throw ValidationError.nonField('Past reservations cannot be changed.');
  await repo.cancelReservation(db, id, caller.id);
  await publishChange(db, 'reservations', row.calendarId);
}

/** Marks these reservations paid (a successful charge). */
export function markReservationsPaid(
  db: Queryable,
  ids: number[],
  chargeId: number | null = null,
): Promise<number> {
  return repo.markPaid(db, ids, chargeId);
}
