import { useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { DESK_METHODS, PAYMENT_METHOD_LABELS, type DeskMethod } from '@paddock/contract/charges';
import { formatMoney } from '@paddock/contract/money';
import type { PlannerBookPrice, PlannerDay } from '@paddock/contract/planner';
import {
  WALK_IN_HALF_HOURS,
  walkInDuration,
  type WalkInRequest,
  type WalkInResponse,
} from '@paddock/contract/walk-in';
import { TextField } from '../../../components/text-field';
import { api, ApiError } from '../../../lib/api-client';
import { showAlert } from '../../../lib/alerts';
import { checkoutErrorMessage } from '../../../lib/booking-errors';
import { formatSlotTime } from '../../../lib/slot-format';
import { cellKey } from '../lib/planner-cells';
import { walkInQuoteQuery } from '../api/planner-api';

/** How many half-hours from now the seat is free for, following the day's slots. */
function freeRun(day: PlannerDay, taken: Set<string>, seat: number): number {
  const start = day.slots.findIndex((s) => s.slot === day.now_slot);
  if (start < 0) return 0;
  let n = 0;
  while (start + n < day.slots.length && !taken.has(cellKey(seat, day.slots[start + n].slot)))
    n += 1;
  return n;
}

/**
 * Walk-in now (issue 41, decision 0117): a free seat from the current half-hour, a duration, the
 * driver's name (an e-mail if they want the receipt) and how they paid: the payment button books
 * and records the money in one request. One hour in cash on a free seat is three taps: Walk-in
 * now, the seat, Cash.
 */
export function WalkInNow({ day }: { day: PlannerDay }) {
  const [open, setOpen] = useState(false);
  if (!day.slots.some((s) => s.slot === day.now_slot)) return null;
  return (
    <>
      <Button variant="success" onClick={() => setOpen(true)}>
        Walk-in now
      </Button>
      {open && <WalkInDialog day={day} onClose={() => setOpen(false)} />}
    </>
  );
}

function WalkInDialog({ day, onClose }: { day: PlannerDay; onClose: () => void }) {
  const client = useQueryClient();
  const [seat, setSeat] = useState<number | null>(null);
  const [halfHours, setHalfHours] = useState(2);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  // One key per dialog: a double tap records the payment once.
  const [key] = useState(() => crypto.randomUUID());
  const nameRef = useRef<HTMLInputElement>(null);
  const taken = useMemo(
    () => new Set(day.entries.map((e) => cellKey(e.calendar, e.slot))),
    [day.entries],
  );
  const runs = new Map(day.seats.map((s) => [s.id, freeRun(day, taken, s.id)]));
  const free = day.seats.filter((s) => (runs.get(s.id) ?? 0) > 0);
  const longest = seat === null ? 0 : (runs.get(seat) ?? 0);
  const length = Math.min(halfHours, longest);
  // The price before the payment tap: the server's (a known e-mail's club standing counts).
  const address = /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.trim()) ? email.trim() : '';
  const quote = useQuery(
    walkInQuoteQuery(
      seat === null || length === 0 ? null : { calendar: seat, half_hours: length, email: address },
    ),
  );

  const book = useMutation({
    mutationFn: (body: WalkInRequest) =>
      api<WalkInResponse>('/planner/walk_in', { method: 'POST', body }),
    onSuccess: (result) => {
      showAlert(result.detail, 'success', 8_000);
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.body) {
        const body = error.body as Record<string, string[]>;
        const fields = Object.keys(body).filter((f) => f !== 'non_field_errors');
        if (fields.length > 0) {
          setErrors(Object.fromEntries(fields.map((f) => [f, body[f].join(' ')])));
          return;
        }
      }
      showAlert(checkoutErrorMessage(error), 'danger');
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['planner'] }),
  });

  const pay = (method: DeskMethod) => {
    const missing: Record<string, string> = {};
    if (seat === null) missing.calendar = 'Choose a free seat.';
    if (!name.trim()) missing.name = 'Enter the driver’s name.';
    setErrors(missing);
    if (seat === null || !name.trim()) {
      if (missing.name && !missing.calendar) nameRef.current?.focus();
      return;
    }
    book.mutate({
      calendar: seat,
      half_hours: length,
      name: name.trim(),
      email: email.trim(),
      method,
      idempotency_key: key,
    });
  };

  return (
    <Modal show onHide={onClose} aria-labelledby="walk-in-title" fullscreen="sm-down">
      <Modal.Header closeButton>
        <Modal.Title as="h2" id="walk-in-title" className="h5">
          Walk-in now
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-body-secondary">
          From {formatSlotTime(day.now_slot)}, the half-hour under way (booked whole).
        </p>
        <fieldset className="mb-3">
          <legend className="h6">Seat</legend>
          {free.length === 0 && <p className="mb-0">No seat is free now.</p>}
          <div className="d-flex flex-wrap gap-2">
            {free.map((s) => (
              <Button
                key={s.id}
                variant={seat === s.id ? 'primary' : 'outline-primary'}
                aria-pressed={seat === s.id}
                className="walk-in-seat"
                style={{ minWidth: '6.5rem', minHeight: '3rem' }}
                onClick={() => {
                  setSeat(s.id);
                  setErrors((e) => ({ ...e, calendar: '' }));
                  // The name comes next: typing needs no tap.
                  nameRef.current?.focus();
                }}
              >
                {s.name}
                <span className="d-block small">{s.type_name}</span>
              </Button>
            ))}
          </div>
          {errors.calendar && (
            <div className="text-danger small mt-1" role="alert">
              {errors.calendar}
            </div>
          )}
        </fieldset>
        <fieldset className="mb-3">
          <legend className="h6">How long</legend>
          <div className="d-flex flex-wrap gap-2">
            {WALK_IN_HALF_HOURS.map((n) => (
              <Button
                key={n}
                size="sm"
                variant={halfHours === n ? 'secondary' : 'outline-secondary'}
                aria-pressed={halfHours === n}
                disabled={seat !== null && n > longest}
                style={{ minHeight: '2.75rem' }}
                onClick={() => setHalfHours(n)}
              >
                {walkInDuration(n)}
              </Button>
            ))}
          </div>
          {errors.half_hours && (
            <div className="text-danger small mt-1" role="alert">
              {errors.half_hours}
            </div>
          )}
        </fieldset>
        <div className="row g-2">
          <div className="col-sm-6">
            <TextField
              ref={nameRef}
              label="Driver’s name"
              autoComplete="off"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={errors.name || undefined}
            />
          </div>
          <div className="col-sm-6">
            <TextField
              label="E-mail (optional, for the receipt)"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={errors.email || undefined}
            />
          </div>
        </div>
        <WalkInPrice
          price={seat === null ? null : (quote.data ?? null)}
          waiting={quote.isFetching}
        />
        <fieldset>
          <legend className="h6">Paid by — books and records the payment</legend>
          <div className="d-flex flex-wrap gap-2">
            {DESK_METHODS.map((m) => (
              <Button
                key={m}
                variant={m === 'cash' ? 'success' : 'outline-success'}
                disabled={book.isPending}
                style={{ minHeight: '3rem' }}
                onClick={() => pay(m)}
              >
                {book.isPending && book.variables?.method === m && (
                  <Spinner size="sm" className="me-2" aria-hidden />
                )}
                {PAYMENT_METHOD_LABELS[m]}
              </Button>
            ))}
          </div>
          {errors.method && (
            <div className="text-danger small mt-1" role="alert">
              {errors.method}
            </div>
          )}
        </fieldset>
      </Modal.Body>
    </Modal>
  );
}

/** The total to take and its parts, as the receipt will list them; read out when it changes. */
function WalkInPrice({ price, waiting }: { price: PlannerBookPrice | null; waiting: boolean }) {
  const money = (cents: number) => formatMoney(cents, price?.currency);
  const seats = price?.lines.reduce((n, l) => n + l.cost_cents, 0) ?? 0;
  const fees = price?.lines.reduce((n, l) => n + l.fee_cents, 0) ?? 0;
  const parts = price
    ? [
        `seats ${money(seats)}`,
        ...(fees > 0 ? [`booking fees ${money(fees)}`] : []),
        ...(price.tax_cents > 0 ? [`tax ${money(price.tax_cents)}`] : []),
      ]
    : [];
  return (
    <p className="mb-2" aria-live="polite" data-testid="walk-in-price">
      {price ? (
        <>
          To take: <strong>{money(price.total_cents)}</strong>{' '}
          <span className="text-body-secondary">({parts.join(', ')})</span>
        </>
      ) : waiting ? (
        'Working out the price…'
      ) : (
        <span className="text-body-secondary">Choose a seat to see the price.</span>
      )}
    </p>
  );
}
