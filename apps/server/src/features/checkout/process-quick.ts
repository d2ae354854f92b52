import { SLOT_TAKEN_MESSAGE, type Reservation } from '@paddock/contract/reservations';
import type { ProcessResponse } from '@paddock/contract/checkout';
import type { CheckoutResult } from '../../db/schema/booking';
import type { AuthUser } from '../../plugins/auth';
import { pruneChanges } from '../../plugins/changes';
import { ValidationError } from '../../plugins/errors';
import { mergeSettings } from '../../plugins/settings';
import { isSlotTaken } from '../reservations/reservations.repo';
import { freshRow, toReservation } from '../reservations/reservations.service';
import type { SeatLookup } from '../reservations/seat-cache';
import { policyOf } from '../refunds/refund-policy';
import type { CheckoutContext } from './checkout-context';
import { storedFacts } from './send-confirmation';
import { resolveCheckoutItems } from './checkout-items';
import { crashAt } from '../../lib/crash-point';
import { claimAndBook, readForProcessing } from './process-statements';
import { chargeAndFinish } from './finish-checkout';

/**
 * The common checkout, processed in a few single statements instead of two transactions
 * (decision 0046): a first processing, paid in full by the customer's saved card, without a
 * voucher or club credits. The seats come from memory (SeatCache); what the answer and the
 * confirmation show is read in the first statement or known from the writes. Its claim is its
 * own; charging and finishing are every claimed checkout's `chargeAndFinish` (decision 0072).
 * Answers null when the checkout is anything else, or a concurrent call claimed it first: the
 * full path (the caller's) then does, or replays, the work, as before.
 */
export async function processQuickly(
  ctx: CheckoutContext,
  caller: AuthUser,
  id: number,
  now: Date,
  seats: SeatLookup,
): Promise<{ result: CheckoutResult; finishedNow: boolean } | null> {
  const { db } = ctx;
  const read = await readForProcessing(db, id, ctx.payments.kind);
  if (!read || read.checkout.userId !== caller.id || !read.card) return null;
  const { checkout } = read;
  const amounts = checkout.amounts;
  if (checkout.status !== 'quoted' || checkout.result) return null;
  if (amounts.totalCents <= 0 || amounts.creditsUsing > 0) return null;
  if (checkout.voucherCode && amounts.discountCents > 0) return null;

  const resolved = await resolveCheckoutItems(db, caller, checkout, now, seats);
  // With a provider recording in our database, the claim and the charge commit without waiting
  // for the WAL flush: the finishing statement waits for it, which makes them durable too, and
  // nothing outside the database hears of either before it (decision 0062). A crash before it
  // loses them together: the checkout is quoted again and nothing was charged.
  const flushLater = ctx.payments.chargeAndRecord !== undefined;
  let claim;
  try {
    claim = await claimAndBook(
      db,
      checkout,
      checkout.items.map((item, i) => ({
        calendarId: item.calendarId,
        slot: item.slot,
        time: new Date(resolved[i].slot.startMs),
        amountCents: item.amountCents,
        bookingFeeCents: item.bookingFeeCents,
      })),
      now,
      { flushLater },
    );
  } catch (error) {
    if (isSlotTaken(error)) throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
    throw error;
  }
  if (!claim.claimed) {
    if (claim.heldForOther) throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
    return null;
  }
  crashAt(ctx.crashAt, 'claimed');
  const location = resolved[0].seat.location;
  /** The answer and what the confirmation says, from what the claim read (no reading again). */
  const answer = () => {
    const rows = checkout.items
      .map((item, i) =>
        freshRow(resolved[i].seat, {
          id: claim.ids[0],
          slot: item.slot,
          time: new Date(resolved[i].slot.startMs),
          userId: checkout.userId,
          paid: true,
          amountCents: item.amountCents,
          isBlackout: false,
          notes: '',
          createdById: caller.id,
          checkoutId: checkout.id,
          user: read.customer,
          creator: read.customer,
        }),
      )
      .sort((a, b) => a.time.getTime() - b.time.getTime() || a.calendarId - b.calendarId)
      .map((row, i) => ({ ...row, id: claim.ids[i] }));
    const reservations: Reservation[] = rows.map((row) => toReservation([row]));
    const body: ProcessResponse = {
      checkout_id: checkout.id,
      status: 'paid',
      total_cents: amounts.totalCents,
      currency: location.currency,
      reservations,
      post_booking_url: location.postBookingUrl,
    };
    const result: CheckoutResult = { statusCode: 200, body };
    const settings = mergeSettings(read.settings);
    const confirmation = read.customer?.email
      ? storedFacts({
          checkout,
          user: { ...read.customer, email: read.customer.email },
          location,
          names: new Map(resolved.map((r) => [r.seat.id, r.seat.name])),
          settings,
          policy: policyOf(location, settings, read.clubMember),
          rows,
        })
      : null;
    return { result, confirmation };
  };
  // From here on the same step as every claimed checkout's (decision 0072), with what was read.
  return chargeAndFinish(ctx, checkout, {
    card: read.card,
    flushLater,
    currency: location.currency,
    answer,
    announce: claim.notices,
    beforeCharge: () => pruneChanges(db),
  });
}
