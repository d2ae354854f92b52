import { lazy, Suspense, useId, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { ApiError } from '../../../lib/api-client';
import { showAlert } from '../../../lib/alerts';
import { isSlotTaken, reservationErrorMessage } from '../../../lib/booking-errors';
import { useCurrentUser } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import {
  addMonths,
  browserZoneDiffers,
  formatSlotShort,
  formatSlotTime,
  isHalfHourSlot,
  todayIn,
} from '../../../lib/slot-format';
import { useNow } from '../../../lib/use-now';
import { useVenueConfig } from '../../../lib/venue-config';
import { formatMoney } from '@paddock/contract/money-format';
import { quoteCheckout } from '../../../lib/api/quote-checkout';
import type { OpenCheckout } from '../../../components/checkout/checkout-modal';
import { createReservation } from '../api/create-reservation';
import { calendarQuery } from '../api/get-calendar';
import { seatAvailabilityQuery } from '../api/get-seat-availability';
import { bookingLocationsQuery } from '../api/list-booking-locations';
import { subscriptionsQuery, type BookingSubscription } from '../../../lib/api/list-subscriptions';
import { UpcomingReservationsList } from '../components/upcoming-reservations-list';

// Its own chunk: react-day-picker brings date-fns.
const BookingDatePicker = lazy(() => import('../components/booking-date-picker'));
// Loaded on demand: the checkout with its card forms.
const CheckoutModal = lazy(() => import('../../../components/checkout/checkout-modal'));

export const NO_AVAILABILITY_MESSAGE = 'No availability for the selected date';

/** The hint under the club select: this month's or next month's remaining races. */
export function remainingHint(subscription: BookingSubscription, slot: string, today: string) {
  return slot.slice(0, 7) === today.slice(0, 7)
    ? `${subscription.reservations_remaining_this_month} remaining this month`
    : `${subscription.reservations_remaining_next_month} remaining next month`;
}

/** A user's explicit pick of a time on one date; null slot means "none" (after booking). */
type Choice = { date: string; slot: string | null };

/**
 * One simulator's reservation page (/reservations/:calendar, customer §2): a month calendar,
 * that day's free times (the nearest is chosen for you), the club select and 'Book It!', then
 * the customer's upcoming reservations.
 */
export default function ReservationCreateScreen() {
  const { calendar: param } = useParams();
  const calendarId = Number(param);
  const valid = Number.isInteger(calendarId) && calendarId > 0;
  const client = useQueryClient();
  const config = useVenueConfig();
  const user = useCurrentUser().data;
  const timesId = useId();
  const now = useNow();
  const subscriptionId = useId();

  const calendar = useQuery({ ...calendarQuery(calendarId), enabled: valid });
  const locations = useQuery(bookingLocationsQuery);
  const location = locations.data?.find((l) => l.id === calendar.data?.location);
  const zone = location?.timezone ?? config.default_timezone;
  const today = todayIn(zone, new Date(now));
  const lastDate = addMonths(today, 2);

  // A link may name the time to open on (a waitlist offer's held seat): its date, that time.
  const [params] = useSearchParams();
  const linked = params.get('slot');
  const opening = linked && isHalfHourSlot(linked) ? linked : null;
  const [pickedDate, setPickedDate] = useState<string | null>(opening?.slice(0, 10) ?? null);
  const [choice, setChoice] = useState<Choice | null>(
    opening ? { date: opening.slice(0, 10), slot: opening } : null,
  );
  const [subscriptionChoice, setSubscriptionChoice] = useState<number | null | undefined>();
  const date = pickedDate && pickedDate >= today && pickedDate <= lastDate ? pickedDate : today;

  const avail = useQuery({ ...seatAvailabilityQuery(calendarId, date), enabled: valid });
  const times = Object.values(avail.data ?? {}).filter(
    (s) => s.state === 'free' && isHalfHourSlot(s.slot) && Date.parse(s.time) > now,
  );
  const explicit = choice?.date === date ? choice.slot : undefined;
  // Staff §4: the simple page chooses the nearest future slot by itself.
  const slotKey =
    explicit === undefined
      ? (times[0]?.slot ?? null)
      : times.some((t) => t.slot === explicit)
        ? explicit
        : null;
  const slot = times.find((t) => t.slot === slotKey);

  const clubOn = config.club_enabled && !!user?.credits_subscription_exists;
  const subscriptions = useQuery({ ...subscriptionsQuery, enabled: clubOn });
  const subs = clubOn ? (subscriptions.data ?? []) : [];
  const subscriptionIdValue =
    subscriptionChoice !== undefined
      ? subscriptionChoice
      : (subs.find((s) => s.reservations_remaining > 0)?.id ?? null);
  const subscription = subs.find((s) => s.id === subscriptionIdValue);

  const [checkout, setCheckout] = useState<OpenCheckout | null>(null);
  const booked = (slotKey: string) => {
    showAlert(`Reservation for ${formatSlotShort(slotKey)} successfully added!`, 'success');
    setChoice({ date, slot: null });
  };
  // Paying per race goes through the checkout like every other booking (issue 30): the
  // price, the card, the confirmation e-mail; nothing is booked before Reserve.
  const quote = useMutation({ mutationFn: quoteCheckout });
  const book = useMutation({ mutationFn: createReservation });
  const bookIt = () => {
    if (!slot || book.isPending || quote.isPending) return;
    if (subscriptionIdValue === null) {
      const items = [{ calendar: calendarId, slot: slot.slot }];
      quote.mutate(
        { reservations: items },
        {
          onSuccess: (answer) => setCheckout({ quote: answer, items }),
          onError: (error) => {
            showAlert(reservationErrorMessage(error), 'danger');
            if (isSlotTaken(error)) void client.invalidateQueries({ queryKey: ['avail'] });
          },
        },
      );
      return;
    }
    // With the club: paid with a credit, nothing owed.
    book.mutate(
      { time: slot.time, slot: slot.slot, calendar: calendarId, subscription: subscriptionIdValue },
      {
        onSuccess: () => {
          booked(slot.slot);
          void client.invalidateQueries({ queryKey: ['avail'] });
          void client.invalidateQueries({ queryKey: ['parallel'] });
          void client.invalidateQueries({ queryKey: ['reservations'] });
          void client.invalidateQueries({ queryKey: subscriptionsQuery.queryKey });
        },
        onError: (error) => {
          showAlert(reservationErrorMessage(error), 'danger');
          if (isSlotTaken(error)) void client.invalidateQueries({ queryKey: ['avail'] });
        },
      },
    );
  };

  if (!valid || (calendar.error instanceof ApiError && calendar.error.status === 404)) {
    return (
      <>
        <PageTitle>Reservations</PageTitle>
        <Alert variant="warning">
          This simulator could not be found.{' '}
          <Link to={pathTo('reservationsAdvanced')} className="alert-link">
            Book a Simulator
          </Link>
        </Alert>
      </>
    );
  }
  if (calendar.isError) {
    return (
      <>
        <PageTitle>Reservations</PageTitle>
        <p className="text-danger">{errorMessage(calendar.error)}</p>
      </>
    );
  }
  if (!calendar.data) {
    return (
      <>
        <PageTitle visuallyHidden>Reservations</PageTitle>
        <SpinnerScreen />
      </>
    );
  }

  let emptyText: string | null = null;
  if (avail.isPending) emptyText = 'Loading available times...';
  else if (!times.length) emptyText = `No times available for ${date}`;

  return (
    <>
      <PageTitle>{`${calendar.data.name} Reservations`}</PageTitle>
      <Row className="g-4">
        <Col md={6} lg={5}>
          <Suspense fallback={<SpinnerScreen label="Loading calendar…" />}>
            <BookingDatePicker
              label="Date"
              value={date}
              first={today}
              last={lastDate}
              startMonth={addMonths(today, -2)}
              endMonth={lastDate}
              onChange={(next) => {
                setPickedDate(next);
                setChoice(null);
              }}
            />
          </Suspense>
        </Col>
        <Col md={6} lg={7}>
          {location && browserZoneDiffers(zone) && (
            <p className="small text-body-secondary">
              Times are in {location.name}&rsquo;s time zone ({zone}).
            </p>
          )}
          <Form.Group className="mb-3" controlId={timesId}>
            <Form.Label>Available Times</Form.Label>
            <Form.Select
              htmlSize={5}
              value={slotKey ?? ''}
              onChange={(e) => setChoice({ date, slot: e.target.value || null })}
            >
              {emptyText ? (
                <option value="" disabled>
                  {emptyText}
                </option>
              ) : (
                times.map((t) => (
                  <option key={t.slot} value={t.slot}>
                    {formatSlotTime(t.slot)}
                  </option>
                ))
              )}
            </Form.Select>
          </Form.Group>
          {avail.isError && <p className="text-danger">{errorMessage(avail.error)}</p>}
          {avail.isSuccess && !times.length && (
            <Alert variant="warning">{NO_AVAILABILITY_MESSAGE}</Alert>
          )}
          {slot && (
            <>
              <Form.Group className="mb-3" controlId={subscriptionId}>
                <Form.Label>Club</Form.Label>
                <Form.Select
                  value={subscriptionIdValue ?? ''}
                  onChange={(e) =>
                    setSubscriptionChoice(e.target.value ? Number(e.target.value) : null)
                  }
                  aria-describedby={subscription ? `${subscriptionId}-hint` : undefined}
                >
                  {subs.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name || config.club_name}
                    </option>
                  ))}
                  <option value="">Pay per race</option>
                </Form.Select>
                {subscription && (
                  <Form.Text id={`${subscriptionId}-hint`}>
                    {remainingHint(subscription, slot.slot, today)}
                  </Form.Text>
                )}
              </Form.Group>
              <p data-testid="slot-price">
                {subscription
                  ? `Paid with ${config.club_name} credit.`
                  : `Price: ${formatMoney(calendar.data.cost_cents, calendar.data.currency)} per ${calendar.data.cost_unit}, plus any booking fee and tax, shown before you pay.`}
              </p>
              <Button onClick={bookIt} disabled={book.isPending || quote.isPending}>
                {(book.isPending || quote.isPending) && (
                  <Spinner size="sm" className="me-2" aria-hidden="true" />
                )}
                Book It!
              </Button>
            </>
          )}
        </Col>
      </Row>
      <UpcomingReservationsList />
      {checkout && (
        <Suspense fallback={null}>
          <CheckoutModal
            checkout={checkout}
            taxRatePercent={location?.sales_tax_rate_percent}
            onClose={() => setCheckout(null)}
            onStale={() => void client.invalidateQueries({ queryKey: ['avail'] })}
            onBooked={() => setChoice({ date, slot: null })}
            onPaid={() => booked(checkout.items[0].slot)}
          />
        </Suspense>
      )}
    </>
  );
}
