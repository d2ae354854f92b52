import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { DESK_METHODS, PAYMENT_METHOD_LABELS, type DeskMethod } from '@paddock/contract/charges';
import {
  DESK_NOTE_MAX,
  type DeskPaymentRequest,
  type DeskPaymentResponse,
} from '@paddock/contract/desk-payments';
import { formatMoney, minorUnitsPerMajor } from '@paddock/contract/money-format';
import { useMutation } from '@tanstack/react-query';
import { TextField } from '../text-field';
import { errorMessage } from '../../lib/error-message';
import { newPaymentKey, takeDeskPayment } from './take-desk-payment';

export const CHOOSE_METHOD = 'Choose how it was paid.';
export const BAD_AMOUNT = 'Enter an amount greater than zero, like 29.40.';

/** "29.40" → 2940 in the currency's minor units; null when it is not a positive amount. */
export function parseAmount(text: string, currency: string): number | null {
  const per = minorUnitsPerMajor(currency);
  const decimals = Math.round(Math.log10(per));
  const pattern = decimals > 0 ? new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`) : /^\d+$/;
  const clean = text.trim().replace(/,/g, '');
  if (!pattern.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  const cents = Number(whole) * per + Number(fraction.padEnd(decimals, '0') || 0);
  return cents > 0 && Number.isSafeInteger(cents) ? cents : null;
}

const asText = (cents: number, currency: string) => {
  const per = minorUnitsPerMajor(currency);
  return (cents / per).toFixed(Math.round(Math.log10(per)));
};

/**
 * The amounts a desk payment may be, oldest booking first (the server's rule, decision 0083),
 * checked before the confirm step and said in words (issue 41); null when it may be taken.
 */
export function amountRefusal(
  cents: number,
  bookings: { amount_cents: number }[],
  currency: string,
): string | null {
  const stops: number[] = [];
  let running = 0;
  for (const b of bookings) {
    running += b.amount_cents;
    if (running > 0 && stops.at(-1) !== running) stops.push(running);
  }
  if (stops.includes(cents)) return null;
  if (cents > running) return `That is more than is owed (${formatMoney(running, currency)}).`;
  const shown = stops.map((n) => formatMoney(n, currency));
  const list = shown.length > 6 ? [...shown.slice(0, 5), `… ${shown.at(-1)}`] : shown;
  return `A desk payment settles whole bookings, oldest first: ${list.join(', ')}.`;
}

type Props = {
  show: boolean;
  userId: number;
  customer: string;
  owedCents: number;
  currency: string;
  onHide: () => void;
  onPaid: (answer: DeskPaymentResponse) => void;
  /**
   * The bookings this payment is for, oldest first (the desk's own sale, decision 0116): only
   * these are settled, and the amount is checked against them before the confirm step.
   */
  bookings?: { id: number; amount_cents: number }[];
};

/**
 * "Mark All Outstanding as Paid" asks how it was paid and confirms first (issues 28 and 30):
 * the method, the amount (the whole balance unless staff change it), a note, then a summary to
 * confirm. A refusal (an amount that would pay part of a booking) shows in the dialog.
 */
export function TakePaymentModal(props: Props) {
  // Remounted on each opening, so it starts from the balance of that moment.
  return (
    <Modal
      show={props.show}
      onHide={props.onHide}
      aria-labelledby="take-payment-title"
      fullscreen="sm-down"
    >
      {props.show && <TakePaymentForm {...props} />}
    </Modal>
  );
}

function TakePaymentForm({
  userId,
  customer,
  owedCents,
  currency,
  onHide,
  onPaid,
  bookings,
}: Props) {
  // One key per opening: a double click, or a retry after a lost answer, records once.
  const [key] = useState(newPaymentKey);
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const pay = useMutation({
    mutationFn: (body: DeskPaymentRequest) => takeDeskPayment(userId, body),
    onSuccess: onPaid,
    onError: () => setStep('form'),
  });
  const busy = pay.isPending;
  const error = pay.isError ? errorMessage(pay.error) : null;
  const [method, setMethod] = useState<DeskMethod | null>(null);
  const [amount, setAmount] = useState(() => asText(owedCents, currency));
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const cents = parseAmount(amount, currency);
  const methodError = tried && !method ? CHOOSE_METHOD : undefined;
  const refusal = cents !== null && bookings ? amountRefusal(cents, bookings, currency) : null;
  const amountError = tried ? (cents === null ? BAD_AMOUNT : (refusal ?? undefined)) : undefined;

  const review = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (method && cents !== null && !refusal) {
      pay.reset();
      setStep('confirm');
    }
  };
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (method && cents !== null && !busy)
      pay.mutate({
        method,
        amount_cents: cents,
        note: note.trim(),
        idempotency_key: key,
        ...(bookings ? { reservations: bookings.map((b) => b.id) } : {}),
      });
  };
  const money = cents === null ? '' : formatMoney(cents, currency);
  const whole = cents === owedCents;

  if (step === 'confirm' && method && cents !== null)
    return (
      <Form noValidate onSubmit={confirm}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="take-payment-title">Confirm Payment</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            Record <strong>{money}</strong> paid by{' '}
            <strong>{PAYMENT_METHOD_LABELS[method].toLowerCase()}</strong> for {customer}?
          </p>
          <p className="mb-0">
            {whole
              ? 'This marks every outstanding item as paid.'
              : `This pays the oldest bookings it covers; ${formatMoney(owedCents - cents, currency)} stays outstanding.`}{' '}
            A receipt is e-mailed to the customer.
          </p>
          {note.trim() && <p className="mt-2 mb-0 text-body-secondary">Note: {note.trim()}</p>}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setStep('form')} disabled={busy}>
            Back
          </Button>
          <Button type="submit" variant="success" disabled={busy} autoFocus>
            {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Confirm Payment
          </Button>
        </Modal.Footer>
      </Form>
    );

  return (
    <Form noValidate onSubmit={review}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="take-payment-title">Take Payment</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {error && (
          <Alert variant="danger" className="white-space-pre-line">
            {error}
          </Alert>
        )}
        <p>
          Outstanding: <strong>{formatMoney(owedCents, currency)}</strong>
        </p>
        <fieldset
          className="mb-3"
          aria-describedby={methodError ? 'take-payment-method-error' : undefined}
        >
          <legend className="form-label fs-6">How was it paid?</legend>
          {DESK_METHODS.map((m) => (
            <Form.Check
              key={m}
              type="radio"
              id={`take-payment-${m}`}
              name="method"
              label={PAYMENT_METHOD_LABELS[m]}
              checked={method === m}
              onChange={() => setMethod(m)}
              isInvalid={!!methodError}
            />
          ))}
          {methodError && (
            <div id="take-payment-method-error" className="invalid-feedback d-block">
              {methodError}
            </div>
          )}
        </fieldset>
        <TextField
          label={`Amount (${currency})`}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={amountError}
          hint="The whole balance, or the oldest bookings it pays for."
        />
        <TextField
          label="Note (optional)"
          rows={2}
          maxLength={DESK_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Cancel
        </Button>
        <Button type="submit" variant="primary">
          Continue
        </Button>
      </Modal.Footer>
    </Form>
  );
}
