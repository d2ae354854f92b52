import { and, eq, sql } from 'drizzle-orm';
import {
  DESK_METHOD_PHRASES,
  PAYMENT_METHOD_LABELS,
  type DeskMethod,
} from '@paddock/contract/charges';
import type { DeskPaymentResponse } from '@paddock/contract/desk-payments';
import { formatMoney } from '@paddock/contract/money';
import { CLEARED_OUTSTANDING_MESSAGE } from '@paddock/contract/reservations';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { charges } from '../../db/schema/payments';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { Forbidden, NotFound, ValidationError } from '../../plugins/errors';
import {
  chargeResponse,
  type ChargeRecord,
  type Queryable,
} from '../../plugins/payments/charge-card';
import type { ReceiptDeps } from '../../plugins/receipt-mail';
import * as reservationsRepo from '../reservations/reservations.repo';
import { recordAudit } from '../audit/audit.service';
import { sendDeskReceipt } from './desk-payment-mail';

export type DeskPaymentInput = {
  method: DeskMethod;
  amount_cents: number;
  note: string;
  idempotency_key: string;
  reservations?: number[];
};

export const NAME_THE_BOOKINGS =
  'Taking money toward the whole balance needs the permission to edit customer accounts; name the bookings this payment is for.';

/**
 * Who may take it (decision 0116): staff who edit customer accounts and reservations, toward the
 * whole balance (the powers of "Mark All Outstanding as Paid"); staff holding only the planner
 * permission, for bookings they name — the sale they just made at the desk, or any of that
 * customer's unpaid bookings the planner shows them.
 */
function assertMayTake(caller: AuthUser, input: DeskPaymentInput) {
  if (!hasPermission(caller, 'reservations.change_reservation')) throw new Forbidden();
  if (!hasPermission(caller, 'user.change_user') && !input.reservations)
    throw new Forbidden(NAME_THE_BOOKINGS);
}

/** The outstanding bookings this payment may settle: the named ones, each the customer's own. */
function poolOf(rows: reservationsRepo.ReservationRow[], named: number[] | undefined) {
  if (!named) return rows;
  const owed = new Set(rows.map((r) => r.id));
  const stray = [...new Set(named)].find((id) => !owed.has(id));
  if (stray !== undefined)
    throw ValidationError.field(
      'reservations',
      `Booking ${stray} is not an unpaid booking of this customer.`,
    );
  const wanted = new Set(named);
  return rows.filter((r) => wanted.has(r.id));
}

/**
 * The bookings a desk payment of `amount` settles: the oldest outstanding ones, in the oldest
 * one's currency, whose amounts add up to exactly `amount` (docs/decisions/0083). A booking is
 * either paid or owed in full, so an amount that would cover a booking in part is refused with
 * the amounts that would not.
 */
export function bookingsCovered(rows: reservationsRepo.ReservationRow[], amount: number) {
  if (rows.length === 0)
    throw ValidationError.field('amount_cents', 'Nothing is outstanding for this customer.');
  const currency = rows[0].currency;
  const same = rows.filter((r) => r.currency === currency);
  const settled: reservationsRepo.ReservationRow[] = [];
  let sum = 0;
  for (const row of same) {
    if (sum + row.amountCents > amount) break;
    sum += row.amountCents;
    settled.push(row);
  }
  if (sum === amount) return { currency, settled };
  const stops: number[] = [];
  let running = 0;
  for (const row of same) {
    running += row.amountCents;
    if (running > 0 && stops.at(-1) !== running) stops.push(running);
  }
  if (amount > running)
    throw ValidationError.field(
      'amount_cents',
      `That is more than is owed (${formatMoney(running, currency)}).`,
    );
  const shown = stops.map((n) => formatMoney(n, currency));
  const list = shown.length > 6 ? [...shown.slice(0, 5), `… ${shown.at(-1)}`] : shown;
  throw ValidationError.field(
    'amount_cents',
    `A desk payment settles whole bookings, oldest first: ${list.join(', ')}.`,
  );
}

/** Any number: with the customer's id, the advisory lock of their desk payments. */
const DESK_PAYMENT_LOCK = 83_0083;

async function lockCustomer(tx: Queryable, userId: number) {
  // One desk payment per customer at a time: two staff (or two clicks) never settle one booking
  // twice, and the second of two same-key requests finds the first's charge. An advisory lock,
  // not the users row: a cancel holds a booking's row and then updates the user's credits, so
  // locking the user first here could deadlock with it.
  await tx.execute(sql`select pg_advisory_xact_lock(${DESK_PAYMENT_LOCK}, ${userId})`);
  const [row] = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

async function replay(tx: Queryable, charge: ChargeRecord, userId: number) {
  const settled = await tx
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(eq(reservations.chargeId, charge.id), eq(reservations.userId, userId)))
    .orderBy(reservations.time, reservations.id);
  return { charge, settled: settled.map((r) => r.id) };
}

async function owedCents(db: Queryable, userId: number) {
  const rows = await reservationsRepo.outstandingRows(db, userId);
  return rows.reduce((n, r) => n + r.amountCents, 0);
}

function chargeNotes(method: DeskMethod, count: number, note: string) {
  const what = `${PAYMENT_METHOD_LABELS[method]} at the desk (${count} booking${count === 1 ? '' : 's'})`;
  return note ? `${what}: ${note}` : what;
}

/**
 * Records money taken at the desk as a charge with its method and the staff member, and marks
 * the bookings it covers paid, in one transaction; the receipt is mailed after the commit.
 */
export async function takeDeskPayment(
  db: Db,
  caller: AuthUser,
  userId: number,
  input: DeskPaymentInput,
  mail?: ReceiptDeps,
): Promise<DeskPaymentResponse> {
  assertMayTake(caller, input);
  const key = `desk-${userId}-${input.idempotency_key}`;
  const outcome = await db.transaction(async (tx) => {
    const customer = await lockCustomer(tx, userId);
    if (!customer) throw new NotFound();
    const [earlier] = await tx.select().from(charges).where(eq(charges.idempotencyKey, key));
    if (earlier) return { ...(await replay(tx, earlier, userId)), receipt: null };
    const rows = poolOf(await reservationsRepo.outstandingRows(tx, userId), input.reservations);
    const { currency, settled } = bookingsCovered(rows, input.amount_cents);
    const [charge] = await tx
      .insert(charges)
      .values({
        userId,
        amountCents: input.amount_cents,
        currency,
        notes: chargeNotes(input.method, settled.length, input.note),
        kind: 'desk',
        method: input.method,
        takenById: caller.id,
        idempotencyKey: key,
      })
      .returning();
    const ids = settled.map((r) => r.id);
    await reservationsRepo.markPaid(tx, ids, charge.id);
    const owed = rows.reduce((n, r) => n + r.amountCents, 0);
    await recordAudit(tx, caller, {
      action: 'user.desk_payment',
      targetType: 'user',
      targetId: userId,
      subjectUserId: userId,
      before: { owed: formatMoney(owed, currency), reservations: ids },
      after: {
        summary: `Took ${formatMoney(input.amount_cents, currency)} ${DESK_METHOD_PHRASES[input.method]} for ${ids.length} booking${ids.length === 1 ? '' : 's'}`,
        method: input.method,
        amount_cents: input.amount_cents,
        charge: charge.id,
        ...(input.note ? { note: input.note } : {}),
      },
    });
    return { charge, settled: ids, receipt: { to: customer.email, rows: settled } };
  });
  const balance = await owedCents(db, userId);
  // A replay mails nothing: the first request did.
  if (mail && outcome.receipt?.to)
    await sendDeskReceipt(db, mail, outcome.receipt.to, outcome.charge, outcome.receipt.rows);
  const amount = formatMoney(outcome.charge.amountCents, outcome.charge.currency);
  return {
    detail:
      balance === 0
        ? CLEARED_OUTSTANDING_MESSAGE
        : `${amount} recorded (${PAYMENT_METHOD_LABELS[outcome.charge.method ?? 'other'].toLowerCase()}).`,
    charge: chargeResponse(outcome.charge),
    reservations: outcome.settled,
    balance_cents: balance,
  };
}
