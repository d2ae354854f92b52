import type { VenueSettings } from '@paddock/contract/venue';
import type { CheckoutItem } from '../../db/schema/booking';
import type { locations } from '../../db/schema/venue';
import type { MailMessage } from '../../plugins/mail';
import type { Queryable } from '../../plugins/payments/charge-card';
import { venueOf } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import type { Db } from '../../db/client';
import { policyFor } from '../refunds/refund-policy';
import { customerCalendarOf } from '../reservations/reservation-calendar';
import {
  findRowsByIds,
  type PersonName,
  type ReservationRow,
} from '../reservations/reservations.repo';
import { displayName } from '../reservations/reservations.service';
import * as repo from './checkout.repo';
import {
  confirmationMail,
  paymentOutcomeMail,
  type BookingPayment,
  type PaymentOutcome,
} from './confirmation-mail';

type LocationRow = typeof locations.$inferSelect;

/** What the confirmation says (readConfirmationFacts, readBookingFacts). */
export type ConfirmationFacts = {
  booking: PaidBooking;
  user: PersonName & { email: string };
  location: Pick<LocationRow, 'name' | 'address' | 'timezone' | 'currency'>;
  names: Map<number, string>;
  settings: Pick<VenueSettings, 'company_name' | 'logo_url'>;
  policy: { text: string };
  rows: ReservationRow[];
};

/**
 * A paid booking, whatever paid it (issue 30): a checkout (card, voucher, credits) or a club
 * subscription's credit on the seat's own page. `reference` is what the mail calls it.
 */
export type PaidBooking = {
  reference: string;
  userId: number;
  locationId: number;
  totalCents: number;
  items: Pick<CheckoutItem, 'calendarId' | 'time'>[];
  reservationIds: number[];
  /** What paid, line by line (issue 41); a checkout's comes from its stored amounts. */
  payment?: BookingPayment;
  /** A payment that did not go through: that mail instead of a confirmation (issue 41). */
  failed?: PaymentOutcome;
};

/** The facts of a paid checkout; null: no one to mail. */
export async function readConfirmationFacts(
  db: Queryable,
  checkoutId: number,
): Promise<ConfirmationFacts | null> {
  const checkout = await repo.findCheckout(db, checkoutId);
  if (!checkout) return null;
  return readBookingFacts(db, {
    reference: `#${checkout.id}`,
    userId: checkout.userId,
    locationId: checkout.locationId,
    totalCents: checkout.amounts.totalCents,
    items: checkout.items,
    reservationIds: await repo.checkoutReservationIds(db, checkoutId),
    // The lines the checkout showed: its stored quote's amounts (issue 41).
    payment: {
      by: 'card',
      seatsCents: checkout.items.reduce((n, i) => n + i.costCents, 0),
      feesCents: checkout.items.reduce((n, i) => n + i.bookingFeeCents, 0),
      taxCents: checkout.amounts.salesTaxCents,
      voucher:
        checkout.amounts.discountCents > 0
          ? { code: checkout.voucherCode ?? '', cents: checkout.amounts.discountCents }
          : null,
      credits:
        checkout.amounts.creditsUsing > 0
          ? { count: checkout.amounts.creditsUsing, cents: checkout.amounts.creditsValueCents }
          : null,
    },
  });
}

/** A checkout's facts as an owed mail stores them (a payment that did not go through, 0116). */
export async function checkoutBooking(
  db: Queryable,
  checkout: NonNullable<Awaited<ReturnType<typeof repo.findCheckout>>>,
  failed: PaymentOutcome,
): Promise<PaidBooking> {
  return {
    reference: `#${checkout.id}`,
    userId: checkout.userId,
    locationId: checkout.locationId,
    totalCents: checkout.amounts.totalCents,
    items: checkout.items.map((i) => ({ calendarId: i.calendarId, time: i.time })),
    reservationIds: await repo.checkoutReservationIds(db, checkout.id),
    failed,
  };
}

/** The facts of any paid booking; null: no one to mail. */
export async function readBookingFacts(
  db: Queryable,
  booking: PaidBooking,
): Promise<ConfirmationFacts | null> {
  const user = await repo.findUserContact(db, booking.userId);
  const location = await repo.findLocation(db, booking.locationId);
  if (!user?.email || !location) return null;
  const names = await repo.seatNames(
    db,
    booking.items.map((i) => i.calendarId),
  );
  const settings = await getSettings(db as Db);
  const policy = await policyFor(db, location, booking.userId);
  const rows = await findRowsByIds(db, booking.reservationIds);
  return {
    booking,
    user: { ...user, email: user.email },
    location,
    names,
    settings,
    policy,
    rows,
  };
}

/** The booking confirmation of these facts. */
export function confirmationOf(
  ctx: { publicUrl: string; mailFrom: string },
  facts: ConfirmationFacts,
): Promise<MailMessage> {
  const { booking, user, location, names, settings } = facts;
  const mail = (m: Parameters<typeof confirmationMail>[0]) =>
    booking.failed ? paymentOutcomeMail({ ...m, ...booking.failed }) : confirmationMail(m);
  return mail({
    policyText: facts.policy.text,
    reference: booking.reference,
    to: user.email,
    name: displayName({ ...user }) ?? user.email,
    venue: venueOf(settings, ctx.publicUrl),
    location: {
      name: location.name,
      address: location.address,
      timezone: location.timezone,
      currency: location.currency,
    },
    totalCents: booking.totalCents,
    payment: booking.payment,
    calendar: customerCalendarOf(facts.rows, {
      name: `${settings.company_name} booking`,
      publicUrl: ctx.publicUrl,
      organizer: { name: settings.company_name, mailFrom: ctx.mailFrom },
    }),
    items: booking.items
      .map((i) => ({
        seatName: names.get(i.calendarId) ?? 'Simulator',
        start: new Date(i.time),
      }))
      .sort((a, b) => a.start.getTime() - b.start.getTime()),
  });
}
