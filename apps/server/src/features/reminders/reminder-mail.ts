import { DateTime } from 'luxon';
import type { CancelQuote } from '@paddock/contract/refunds';
import { formatMoney } from '@paddock/contract/money';
import type { MailMessage } from '../../plugins/mail';
import { receiptMail, venueOf } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import { seatRuns } from '../checkout/confirmation-mail';
import type { ReservationRow } from '../reservations/reservations.repo';
import { customerCalendarOf } from '../reservations/reservation-calendar';
import type { Db } from '../../db/client';

/** What cancelling the visit now would give back, in one sentence, from the cancel's own quotes. */
export function cancelNowSentence(quotes: CancelQuote[], currency: string, zone: string): string {
  const money = (cents: number) => formatMoney(cents, currency);
  const paid = quotes.reduce((n, q) => n + q.paid_cents, 0);
  const back = quotes.reduce((n, q) => n + q.refund.total_cents, 0);
  const kept = quotes.reduce((n, q) => n + q.refund.kept_cents, 0);
  if (paid === 0) return 'Nothing is paid for this visit yet, so cancelling it costs nothing.';
  if (kept === 0) {
    const until = DateTime.fromISO(quotes[0].free_until, { zone });
    return `Cancelling now gives back all you paid (${money(back)}); it stays free until ${until.toFormat('ccc, LLL d, h:mm a')}.`;
  }
  if (back === 0)
    return `Cancelling now would give nothing back: the ${money(paid)} paid is kept under the cancellation policy.`;
  return `Cancelling now gives back ${money(back)} of the ${money(paid)} paid: ${money(kept)} is kept under the cancellation policy.`;
}

/** The reminder: the visit's seats and times on the venue's clock, the cancel's terms, its .ics. */
export async function reminderMail(
  ctx: { db: Db; publicUrl: string; mailFrom: string },
  visit: ReservationRow[],
  quotes: CancelQuote[],
  kind: 'first' | 'second',
): Promise<MailMessage> {
  const [first] = visit;
  const person = first.user!;
  const zone = first.timezone;
  const settings = await getSettings(ctx.db);
  const start = DateTime.fromJSDate(first.time, { zone });
  const lines = seatRuns(visit.map((row) => ({ seatName: row.calendarName, start: row.time }))).map(
    (run) => {
      const from = DateTime.fromJSDate(run.start, { zone });
      const to = DateTime.fromJSDate(run.end, { zone });
      return `${run.seatName}: ${from.toFormat('ccc, LLL d, h:mm a')} to ${to.toFormat('h:mm a')}`;
    },
  );
  const name = person.racerName || `${person.firstName} ${person.lastName}`.trim() || person.email;
  const where = [first.locationName, first.locationAddress].filter(Boolean).join(', ');
  return receiptMail({
    to: person.email,
    subject: `Reminder: your visit to ${first.locationName} on ${start.toFormat('ccc, LLL d')} at ${start.toFormat('h:mm a')}`,
    venue: venueOf(settings, ctx.publicUrl),
    heading: kind === 'first' ? 'See you soon' : 'See you shortly',
    paragraphs: [
      `Hi ${name},`,
      `This is a reminder of your visit to ${first.locationName} on ${start.toFormat('cccc, LLLL d')} at ${start.toFormat('h:mm a')}. Please arrive 10 minutes early.`,
    ],
    lines,
    rows: [
      ['Venue', where],
      ['Times shown in', zone],
    ],
    button: { label: 'Your reservations', href: '/dashboard' },
    notes: [
      cancelNowSentence(quotes, first.currency, zone),
      'The attached calendar file adds the visit to your calendar.',
      'You can turn these reminders off in your profile.',
    ],
    attachments: [
      {
        filename: 'visit.ics',
        content: customerCalendarOf(visit, {
          name: settings.company_name,
          publicUrl: ctx.publicUrl,
          organizer: { name: settings.company_name, mailFrom: ctx.mailFrom },
        }),
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      },
    ],
  });
}
