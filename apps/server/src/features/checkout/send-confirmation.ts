import type { VenueSettings } from '@paddock/contract/venue';
import type { locations } from '../../db/schema/venue';
import { venueOf } from '../../plugins/receipt-mail';
import { customerCalendarOf } from '../reservations/reservation-calendar';
import type { PersonName, ReservationRow } from '../reservations/reservations.repo';
import { displayName } from '../reservations/reservations.service';
import type { CheckoutContext } from './checkout.service';
import type { CheckoutRow } from './checkout.repo';
import { confirmationMail } from './confirmation-mail';

type LocationRow = typeof locations.$inferSelect;

/** What the confirmation says, read by sendConfirmation or known by the caller already. */
export type ConfirmationFacts = {
  checkout: CheckoutRow;
  user: PersonName & { email: string };
  location: Pick<LocationRow, 'name' | 'address' | 'timezone' | 'currency'>;
  names: Map<number, string>;
  settings: VenueSettings;
  policy: { text: string };
  rows: ReservationRow[];
};

/** Sends the booking confirmation; a mail failure never undoes a booking: it is logged. */
export async function sendConfirmationOf(
  ctx: CheckoutContext,
  facts: ConfirmationFacts,
): Promise<void> {
  const { checkout, user, location, names, settings } = facts;
  try {
    await ctx.mailer.send(
      await confirmationMail({
        policyText: facts.policy.text,
        checkoutId: checkout.id,
        to: user.email,
        name: displayName({ ...user }) ?? user.email,
        venue: venueOf(settings, ctx.publicUrl),
        location: {
          name: location.name,
          address: location.address,
          timezone: location.timezone,
          currency: location.currency,
        },
        totalCents: checkout.amounts.totalCents,
        calendar: customerCalendarOf(facts.rows, {
          name: `${settings.company_name} booking`,
          publicUrl: ctx.publicUrl,
          organizer: { name: settings.company_name, mailFrom: ctx.mailFrom },
        }),
        items: checkout.items
          .map((i) => ({
            seatName: names.get(i.calendarId) ?? 'Simulator',
            start: new Date(i.time),
          }))
          .sort((a, b) => a.start.getTime() - b.start.getTime()),
      }),
    );
  } catch (error) {
    ctx.logError(error, 'booking confirmation mail failed');
  }
}
