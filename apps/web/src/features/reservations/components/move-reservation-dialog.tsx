import { useId, useState } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { Location } from '@paddock/contract/locations';
import { formatMoney } from '@paddock/contract/money-format';
import type { Reservation } from '@paddock/contract/reservations';
import { showAlert } from '../../../lib/alerts';
import { reservationErrorMessage } from '../../../lib/booking-errors';
import { errorMessage } from '../../../lib/error-message';
import { formatSlotDateTime, formatSlotTime, runSlots, todayIn } from '../../../lib/slot-format';
import { useNow } from '../../../lib/use-now';
import { useVenueConfig } from '../../../lib/venue-config';
import { moveQuoteQuery, useMoveReservations } from '../api/move-reservation';
import { calendarsQuery } from '../api/list-calendars';
import { seatAvailabilityQuery } from '../api/get-seat-availability';

/**
 * Move an upcoming booking to another free seat or time at the same location (inside the free
 * cancellation window, keeping the payment). The quote says what happens to the money before
 * anything moves; a dashboard entry of several half-hours moves as one run.
 */
export function MoveReservationDialog({
  reservation,
  location,
  onClose,
}: {
  reservation: Reservation;
  location: Location | undefined;
  onClose: () => void;
}) {
  const ids = reservation.reservation_ids.length ? reservation.reservation_ids : [reservation.id];
  const config = useVenueConfig();
  const zone = location?.timezone ?? config.default_timezone;
  const now = useNow();
  const seatId = useId();
  const dateId = useId();
  const timeId = useId();
  const [calendar, setCalendar] = useState(reservation.calendar);
  const [date, setDate] = useState(reservation.slot.slice(0, 10));
  const [start, setStart] = useState<string | null>(null);

  const seats = useQuery(calendarsQuery(reservation.location, []));
  const avail = useQuery(seatAvailabilityQuery(calendar, date));
  // The entry's own half-hours on its own seat are free for it to move within.
  const own = new Set(
    calendar === reservation.calendar
      ? runSlots(reservation.time, ids.length, zone)
      : ([] as string[]),
  );
  const slots = Object.values(avail.data ?? {});
  const freeKeys = new Set(
    slots.filter((s) => s.state === 'free' || own.has(s.slot)).map((s) => s.slot),
  );
  const starts = slots.filter(
    (s) =>
      Date.parse(s.time) > now &&
      runSlots(s.time, ids.length, zone).every((k) => freeKeys.has(k)) &&
      !(calendar === reservation.calendar && s.slot === reservation.slot),
  );
  const chosen = starts.find((s) => s.slot === start) ?? null;
  const targets = chosen ? runSlots(chosen.time, ids.length, zone) : [];
  // One quote per half-hour: each moves (and is refunded) on its own.
  const quotes = useQueries({
    queries: ids.map((id, i) =>
      moveQuoteQuery(id, chosen ? { calendar, slot: targets[i], run: ids.length > 1 } : null),
    ),
  });
  const quoteError = quotes.find((q) => q.isError)?.error;
  const quoteLines = quotes.every((q) => q.data)
    ? ids.length === 1
      ? quotes[0].data!.lines
      : quotes.map((q, i) => `Half-hour ${i + 1} of ${ids.length}: ${q.data!.lines.join(' ')}`)
    : null;
  // A paid booking moving to a dearer seat: the difference is charged to the saved card.
  const chargeCents = quotes.reduce((sum, q) => sum + (q.data?.charge_cents ?? 0), 0);
  const currency = location?.currency ?? config.default_currency;
  const move = useMoveReservations();

  const confirm = () => {
    if (!chosen) return;
    // The whole entry moves together, its first half-hour landing on the chosen start.
    const to = { calendar, slot: targets[0], ...(ids.length > 1 ? { run: true } : {}) };
    move.mutate(
      { id: ids[0], to },
      {
        onSuccess: (answer) => {
          const lines = answer.refunds.flatMap((r) => r.refund.lines);
          if (answer.charge_cents > 0)
            lines.push(`${formatMoney(answer.charge_cents, currency)} was charged to your card.`);
          showAlert([answer.detail, ...lines].join(' '), 'success');
          onClose();
        },
        onError: (error) => showAlert(reservationErrorMessage(error)),
      },
    );
  };

  return (
    <Modal show onHide={onClose} aria-labelledby="move-reservation-title" centered>
      <Modal.Header closeButton>
        <Modal.Title id="move-reservation-title" as="h2" className="h5">
          Move this reservation
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          <strong>{reservation.calendar_name}</strong>, {formatSlotDateTime(reservation.slot)} (
          {reservation.duration_minutes} minutes)
        </p>
        <Form.Group className="mb-3" controlId={seatId}>
          <Form.Label>Simulator</Form.Label>
          <Form.Select
            value={calendar}
            onChange={(e) => {
              setCalendar(Number(e.target.value));
              setStart(null);
            }}
          >
            {(seats.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
            {!seats.data && (
              <option value={reservation.calendar}>{reservation.calendar_name}</option>
            )}
          </Form.Select>
        </Form.Group>
        <Form.Group className="mb-3" controlId={dateId}>
          <Form.Label>Date</Form.Label>
          <Form.Control
            type="date"
            value={date}
            min={todayIn(zone, new Date(now))}
            onChange={(e) => {
              if (/^\d{4}-\d{2}-\d{2}$/.test(e.target.value)) setDate(e.target.value);
              setStart(null);
            }}
          />
        </Form.Group>
        <Form.Group className="mb-3" controlId={timeId}>
          <Form.Label>Time</Form.Label>
          {avail.isPending ? (
            <p role="status" className="mb-0">
              Loading available times...
            </p>
          ) : avail.isError ? (
            <p className="text-danger mb-0">{errorMessage(avail.error)}</p>
          ) : starts.length === 0 ? (
            <p className="mb-0">No times available for {date}</p>
          ) : (
            <Form.Select value={start ?? ''} onChange={(e) => setStart(e.target.value || null)}>
              <option value="">Choose a time</option>
              {starts.map((s) => (
                <option key={s.slot} value={s.slot}>
                  {formatSlotTime(s.slot)}
                </option>
              ))}
            </Form.Select>
          )}
        </Form.Group>
        {chosen && !quoteLines && !quoteError && (
          <p role="status">
            <Spinner size="sm" className="me-2" aria-hidden="true" />
            Working out the price…
          </p>
        )}
        {chosen && quoteError && (
          <p className="text-danger">{reservationErrorMessage(quoteError)}</p>
        )}
        {chosen && quoteLines && (
          <>
            <h3 className="h6">What happens to your payment</h3>
            {chargeCents > 0 && (
              <p className="fw-bold mb-1">You pay {formatMoney(chargeCents, currency)} more</p>
            )}
            <ul className="mb-0">
              {quoteLines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose} disabled={move.isPending}>
          Keep Reservation
        </Button>
        <Button
          variant="primary"
          onClick={confirm}
          disabled={!chosen || !quoteLines || move.isPending}
          aria-busy={move.isPending}
        >
          {move.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Move Reservation
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
