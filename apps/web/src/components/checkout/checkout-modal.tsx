import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { DateTime } from 'luxon';
import type { LineItem, ProcessResponse, QuoteResponse } from '@paddock/contract/checkout';
import { CardEntry } from '../payment-method/payment-method-panel';
import { cardQuery, saveCard } from '../payment-method/card-api';
import { SpinnerScreen } from '../spinner-screen';
import { TermsLink } from '../terms-modals';
import { ApiError } from '../../lib/api-client';
import { showAlert, showError } from '../../lib/alerts';
import {
  bookingFailureText,
  declinedText,
  isSlotTaken,
  isVoucherRejection,
  SIMULATOR_TAKEN_MESSAGE,
  VOUCHER_REJECTED_MESSAGE,
} from '../../lib/booking-errors';
import { useCurrentUser } from '../../lib/current-user';
import { DEFAULT_CURRENCY, formatMoney } from '@paddock/contract/money-format';
import { useVenueConfig } from '../../lib/venue-config';
import { balanceQuery } from '../../lib/api/get-balance';
import { processCheckout } from '../../lib/api/process-checkout';
import { runChallenge } from '../payment-method/challenge';
import { quoteCheckout } from '../../lib/api/quote-checkout';
import { AllDoneModal, BookingErrorModal } from './booking-outcome-modals';
import { CheckoutTotals } from './checkout-totals';
import { ClubSavingsPanel } from './club-savings-panel';
import { VoucherEntry } from './voucher-entry';

export type CheckoutItem = { calendar: number; slot: string };

/** The priced checkout the screen opened, and the seat-slots it prices. */
export type OpenCheckout = { quote: QuoteResponse; items: CheckoutItem[] };

export const CARD_NOT_CHARGED_YET = 'Your card will not be charged yet';

type Props = {
  /** Null: no checkout is open. */
  checkout: OpenCheckout | null;
  /** The location's sales tax rate, shown beside the tax. */
  taxRatePercent?: number;
  onClose: () => void;
  /** Someone else took a chosen seat first: the screen reloads what is free. */
  onStale: () => void;
  /** The seats are booked (paid or not): the screen forgets its selection. */
  onBooked: () => void;
  /** The booking is confirmed and paid (the simple page's success message). */
  onPaid?: () => void;
};

/** Queries whose answers a booking changes. */
const BOOKING_QUERY_ROOTS = ['avail', 'parallel', 'reservations'];

function LineItems({ items, currency }: { items: LineItem[]; currency: string }) {
  return (
    <table className="table table-sm align-middle mb-3">
      <caption className="visually-hidden">Your races</caption>
      <thead>
        <tr>
          <th scope="col">Simulator</th>
          <th scope="col">Time</th>
          <th scope="col" className="text-end">
            Price
          </th>
          <th scope="col" className="text-end">
            Booking Fee
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => {
          // The offset in `time` is the venue's: this is the venue's wall clock.
          const start = DateTime.fromISO(item.time, { setZone: true });
          return (
            <tr key={`${item.calendar_name}|${item.time}`}>
              <td>
                {item.calendar_name}
                <span className="d-block small text-body-secondary">{item.calendar_type_name}</span>
              </td>
              <td>
                {start.toFormat('ccc, LLL d')}
                <span className="d-block small">
                  {start.toFormat('h:mm a')} – {start.plus({ minutes: 30 }).toFormat('h:mm a')}
                </span>
              </td>
              <td className="text-end font-monospace">
                {formatMoney(item.calendar_total_cents, currency)}
              </td>
              <td className="text-end font-monospace">
                {formatMoney(item.calendar_booking_fee_cents, currency)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function CheckoutDialog({
  checkout,
  taxRatePercent,
  onClose,
  onStale,
  onBooked,
  onPaid,
}: Props & { checkout: OpenCheckout }) {
  const client = useQueryClient();
  const config = useVenueConfig();
  const user = useCurrentUser().data;
  const userId = user?.id ?? 0;
  const card = useQuery({ ...cardQuery(userId), enabled: !!user });
  const [quote, setQuote] = useState(checkout.quote);
  const [voucher, setVoucher] = useState<string | null>(null);
  const [requoting, setRequoting] = useState(false);
  const [done, setDone] = useState<ProcessResponse | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const process = useMutation({ mutationFn: processCheckout });

  const refreshBookings = () =>
    client.invalidateQueries({
      predicate: (q) => BOOKING_QUERY_ROOTS.includes(String(q.queryKey[0])),
    });

  const seatLost = () => {
    showAlert(SIMULATOR_TAKEN_MESSAGE, 'danger');
    onStale();
    onClose();
  };

  /** Prices again with (or without) a code; false when the code was refused. */
  const requote = async (code: string | null): Promise<boolean> => {
    setRequoting(true);
    try {
      setQuote(await quoteCheckout({ reservations: checkout.items, voucher: code }));
      setVoucher(code);
      return true;
    } catch (error) {
      if (code && isVoucherRejection(error)) {
        showAlert(VOUCHER_REJECTED_MESSAGE, 'warning');
      } else if (isSlotTaken(error)) {
        seatLost();
      } else {
        showError(error);
      }
      return false;
    } finally {
      setRequoting(false);
    }
  };

  const reserve = () => {
    process.mutate(quote.checkout_id, {
      onSuccess: async (answer) => {
        let result = answer;
        if (result.status === 'awaiting_authentication') {
          // The bank asks for 3-D Secure (decision 0085): Stripe shows it over the page, then
          // the server finishes; the local provider's page comes back to the finishing screen.
          try {
            await runChallenge({
              client_secret: result.client_secret ?? null,
              challenge_url: result.challenge_url ?? null,
            });
            result = await processCheckout(quote.checkout_id);
          } catch (error) {
            void refreshBookings();
            setFailure(bookingFailureText(error));
            return;
          }
        }
        onBooked();
        onPaid?.();
        void refreshBookings();
        if (result.post_booking_url) window.location.assign(result.post_booking_url);
        else setDone(result);
      },
      onError: (error) => {
        void refreshBookings();
        if (isSlotTaken(error)) seatLost();
        else if (voucher && isVoucherRejection(error)) {
          // Spent by another checkout in the meantime: price again without it.
          showAlert(VOUCHER_REJECTED_MESSAGE, 'warning');
          void requote(null);
        } else {
          // A declined card still books the seats, unpaid: told as the outstanding balance,
          // with its amount (decision 0096).
          if (error instanceof ApiError && error.status === 402) {
            onBooked();
            void client
              .fetchQuery(balanceQuery(userId))
              .then((owed) => setFailure(declinedText(error, owed.amount_cents, owed.currency)))
              .catch(() => setFailure(bookingFailureText(error)));
          } else setFailure(bookingFailureText(error));
        }
      },
    });
  };

  const onCardToken = async (token: string) => {
    await saveCard(userId, token);
    await Promise.all([
      client.invalidateQueries({ queryKey: ['users', userId] }),
      client.refetchQueries(cardQuery(userId)),
    ]);
  };

  const fees = quote.line_items.reduce((sum, i) => sum + i.calendar_booking_fee_cents, 0);
  const needsCard = quote.total_cents > 0 && !card.data;
  const creating = process.isPending;

  let payment;
  if (card.isPending) payment = <SpinnerScreen label="Loading payment method…" />;
  else if (card.data) {
    payment = (
      <p className="mb-0">
        Paying with {card.data.brand} ending in {card.data.last4}.
      </p>
    );
  } else {
    payment = (
      <>
        <p className="fw-semibold">{CARD_NOT_CHARGED_YET}</p>
        <CardEntry submitLabel="Save Card" onToken={onCardToken} />
      </>
    );
  }

  return (
    <>
      <Modal
        show={!done && !failure}
        onHide={creating ? () => {} : onClose}
        size="lg"
        fullscreen="md-down"
        scrollable
        aria-labelledby="checkout-title"
      >
        <Modal.Header closeButton={!creating} closeLabel="Close">
          <Modal.Title id="checkout-title">Checkout</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <h3 className="h6">Your Races</h3>
          <LineItems items={quote.line_items} currency={quote.currency ?? DEFAULT_CURRENCY} />
          <VoucherEntry
            applied={voucher}
            onApply={requote}
            onRemove={() => void requote(null)}
            disabled={creating || requoting}
          />
          <ClubSavingsPanel
            quote={quote}
            isMember={!!user?.credits_subscription_in_good_standing}
          />
          <section aria-label="Totals" className="mb-3" aria-busy={requoting}>
            <CheckoutTotals
              quote={quote}
              taxRatePercent={taxRatePercent}
              clubName={config.club_name}
            />
            {fees > 0 && quote.booking_fees_threshold > 0 && (
              <p className="small text-body-secondary mt-2 mb-0">
                Booking fees are waived when you book {quote.booking_fees_threshold * 30} minutes or
                more at once.
              </p>
            )}
          </section>
          <section aria-labelledby="checkout-payment-title" className="border-top pt-3">
            <h3 id="checkout-payment-title" className="h6">
              Payment Method
            </h3>
            {payment}
          </section>
          <p className="small text-body-secondary mt-3 mb-0">
            By reserving you agree to our <TermsLink />.
            {quote.cancellation_policy && <> Cancellation policy: {quote.cancellation_policy}</>}
          </p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose} disabled={creating}>
            Cancel
          </Button>
          <Button
            variant="primary"
            onClick={reserve}
            disabled={creating || requoting || needsCard}
            aria-busy={creating}
          >
            {creating && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Reserve
          </Button>
        </Modal.Footer>
      </Modal>
      <AllDoneModal result={done} />
      <BookingErrorModal text={failure} />
    </>
  );
}

/**
 * The checkout modal (staff §2, §4 Booking flow): line items, discount code, club panel,
 * totals, terms link and Reserve; with no saved card, the card form and 'Your card will not be
 * charged yet'. Reserve processes the quote the customer is looking at; success goes to the
 * location's post-booking address or 'All Done', failure to 'Booking Error'.
 */
export default function CheckoutModal(props: Props) {
  if (!props.checkout) return null;
  return (
    <CheckoutDialog key={props.checkout.quote.checkout_id} {...props} checkout={props.checkout} />
  );
}
