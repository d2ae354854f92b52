import crypto from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { DESK_METHOD_PHRASES } from '@paddock/contract/charges';
import { formatMoney } from '@paddock/contract/money';
import { walkInDuration, type WalkInResponse } from '@paddock/contract/walk-in';
import type { z } from 'zod';
import type { walkInQuoteRequest, walkInRequest } from '@paddock/contract/walk-in';
import type { PlannerBookPrice } from '@paddock/contract/planner';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { charges } from '../../db/schema/payments';
import { receiptsOwed } from '../../db/schema/booking';
import { hashPassword, randomPassword } from '../../lib/passwords';
import { daySlots, followsDirectly, nextDate, type Slot } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit } from '../audit/audit.service';
import { sendDeskReceipt } from '../desk-payments/desk-payment-mail';
import { takeDeskPayment } from '../desk-payments/desk-payments.service';
import * as repo from '../reservations/reservations.repo';
import type { RefundContext } from '../refunds/refund-context';
import { bookFor, deskPricing, priceView, slotAround } from './planner.service';

type Body = z.output<typeof walkInRequest>;

/**
 * The half-hours a walk-in starting now takes: the current slot (already begun: the desk books
 * it whole, at its price, decision 0117) and those that follow it directly, all open.
 */
function walkInSlots(seat: repo.SeatForBooking, halfHours: number, now: Date): Slot[] {
  const zone = seat.location.timezone;
  const current = slotAround(now, zone);
  const hours = {
    timezone: zone,
    openingHours: seat.location.openingHours,
    specialHours: seat.location.specialHours,
  };
  // A venue open past midnight: the run goes on into the next day's slots.
  const date = current.slice(0, 10);
  const day = [...daySlots(hours, date), ...daySlots(hours, nextDate(date))];
  const first = day.findIndex((s) => s.slot === current);
  if (first < 0) throw ValidationError.field('calendar', 'The venue is not open now.');
  const run = [day[first]];
  for (let i = first + 1; run.length < halfHours && i < day.length; i++) {
    if (!followsDirectly(run[run.length - 1], day[i])) break;
    run.push(day[i]);
  }
  if (run.length < halfHours)
    throw ValidationError.field(
      'half_hours',
      `The venue closes before then: ${walkInDuration(run.length)} at most.`,
    );
  return run;
}

/** The account of an e-mail given at the desk (its address or username), or null. */
async function knownCustomer(db: Queryable, address: string): Promise<number | null> {
  if (!address) return null;
  const [known] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        isNull(users.deletedAt),
        sql`(lower(${users.email}) = ${address} or lower(${users.username}) = ${address})`,
      ),
    )
    .limit(1);
  return known?.id ?? null;
}

/**
 * The walk-in's account: the one of the e-mail given (a returning customer), else a new one with
 * the name (and the address, when given). A name-only account has a username of its own and no
 * way to log in; staff can add an e-mail later on the admin user page.
 */
async function walkInCustomer(tx: Queryable, caller: AuthUser, name: string, email: string) {
  const address = email.toLowerCase();
  const known = await knownCustomer(tx, address);
  if (known !== null) return { id: known, created: false };
  const [first, ...rest] = name.split(/\s+/);
  const [made] = await tx
    .insert(users)
    .values({
      username: address || `walk-in-${crypto.randomUUID()}`,
      email: address,
      passwordHash: await hashPassword(randomPassword(32)),
      firstName: first,
      lastName: rest.join(' '),
    })
    .returning({ id: users.id });
  await recordAudit(tx, caller, {
    action: 'user.create_customer',
    targetType: 'user',
    targetId: made.id,
    subjectUserId: made.id,
    after: { name, email: address || null, walk_in: true },
  });
  return { id: made.id, created: true };
}

/** The seat and its slots from now, or the 400 naming what is wrong. */
async function walkInSeat(db: Db, body: { calendar: number; half_hours: number }, now: Date) {
  const [seat] = await repo.findActiveSeats(db, [body.calendar]);
  if (!seat)
    throw ValidationError.field(
      'calendar',
      `Invalid pk "${body.calendar}" - object does not exist.`,
    );
  return { seat, slots: walkInSlots(seat, body.half_hours, now) };
}

/**
 * What the walk-in will cost (issue 41): `bookFor`'s own price (`deskPricing`) for the same
 * slots and customer, shown before the desk taps the payment method.
 */
export async function quoteWalkIn(
  db: Db,
  body: z.output<typeof walkInQuoteRequest>,
  now = new Date(),
): Promise<PlannerBookPrice> {
  const { seat, slots } = await walkInSeat(db, body, now);
  const user = await knownCustomer(db, body.email.toLowerCase());
  return priceView(
    await deskPricing(
      db,
      { user, slots: slots.map((s) => ({ calendar: seat.id, slot: s.slot })) },
      now,
    ),
  );
}

/**
 * Walk-in now (issue 41, decision 0117): the desk's booking (`bookFor`, its one price) and the
 * desk payment for exactly that booking (`takeDeskPayment`), composed in one transaction: both
 * happen or neither does. The customer with an e-mail gets one mail, the desk receipt, after the
 * commit.
 */
export async function walkIn(
  ctx: RefundContext,
  caller: AuthUser,
  body: Body,
  now = new Date(),
): Promise<WalkInResponse> {
  const { seat, slots } = await walkInSeat(ctx.db, body, now);
  const done = await ctx.db.transaction(async (tx) => {
    // A transaction is a drizzle database too: the composed services' own transactions become
    // savepoints of this one.
    const inner = tx as unknown as Db;
    const customer = await walkInCustomer(tx, caller, body.name, body.email);
    const booked = await bookFor(
      inner,
      ctx.payments,
      caller,
      {
        user: customer.id,
        slots: slots.map((s) => ({ calendar: seat.id, slot: s.slot })),
        payment: 'desk',
      },
      now,
    );
    const ids = booked.entries.map((e) => e.id);
    const rows = await repo.findRowsByIds(tx, ids);
    const total = rows.reduce((sum, r) => sum + r.amountCents, 0);
    const paid =
      total > 0
        ? await takeDeskPayment(inner, caller, customer.id, {
            method: body.method,
            amount_cents: total,
            note: `Walk-in, ${walkInDuration(body.half_hours)}`,
            idempotency_key: `walk-in-${body.idempotency_key}`.slice(0, 64),
            // Exactly this visit: a returning customer's older debt stays for their page.
            reservations: ids,
          })
        : null;
    // Paid in this same transaction: the desk receipt below is the sale's one mail, not the
    // "to pay at the desk" confirmation the booking owed a moment ago.
    await tx
      .delete(receiptsOwed)
      .where(
        and(
          isNull(receiptsOwed.checkoutId),
          sql`${receiptsOwed.facts} -> 'reservationIds' = ${JSON.stringify(ids)}::jsonb`,
        ),
      );
    return { customer, rows, total, paid, entries: booked.entries };
  });
  if (done.paid) {
    const [user] = await ctx.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, done.customer.id));
    const [charge] = await ctx.db.select().from(charges).where(eq(charges.id, done.paid.charge.id));
    if (user.email) await sendDeskReceipt(ctx.db, ctx, user.email, charge, done.rows);
  }
  const settled = new Set(done.paid?.reservations ?? []);
  const amount = formatMoney(done.total, done.rows[0].currency);
  return {
    detail: done.paid
      ? `${seat.name} booked for ${walkInDuration(body.half_hours)}: ${amount} taken ${DESK_METHOD_PHRASES[body.method]}.`
      : `${seat.name} booked for ${walkInDuration(body.half_hours)}: nothing to pay.`,
    user: done.customer.id,
    entries: done.entries.map((e) => ({ ...e, paid: e.paid || settled.has(e.id) })),
    charge: done.paid?.charge ?? null,
  };
}
