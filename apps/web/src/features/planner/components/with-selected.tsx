import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import type { User } from '@paddock/contract/accounts';
import type { PaymentDue, PlannerBookPrice, PlannerDay } from '@paddock/contract/planner';
import { formatMoney } from '@paddock/contract/money';
import type { RefundChoice } from '@paddock/contract/refunds';
import { formatSlotTime } from '../../../lib/slot-format';
import { showAlert } from '../../../lib/alerts';
import { TakePaymentModal } from '../../../components/take-payment/take-payment-modal';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import {
  bookQuoteQuery,
  deleteQuoteQuery,
  moveQuoteQuery,
  usePlannerAction,
  userSearchQuery,
} from '../api/planner-api';
import { useUndoNoShow } from '../api/undo-no-show';
import { checkoutErrorMessage } from '../../../lib/booking-errors';
import { allowedActions, oneSeatRange, type Cell } from '../lib/planner-cells';
import { NewCustomerForm } from './new-customer-form';
import { UserBadges, userLabel } from './user-search';

type Dialog = 'blackout' | 'delete' | 'book' | 'move' | 'no_show' | null;
/** A sale just booked to pay at the desk, and whose it is: the payment is taken here (0116). */
type Due = PaymentDue & { customer: string };
type Props = {
  day: PlannerDay;
  cells: Cell[];
  onDone: () => void;
  onOutOfService: (range: { calendar: number; from: string; to: string }) => void;
};

/** The With Selected menu (spec staff §2, §5) and the desk's extras, each one call. */
export function WithSelected({ day, cells, onDone, onOutOfService }: Props) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const finish = () => {
    close();
    onDone();
  };
  const allowed = allowedActions(cells);
  const slots = cells.map((c) => ({ calendar: c.calendar, slot: c.slot }));
  const ids = cells.flatMap((c) => (c.entry ? [c.entry.id] : []));
  const attendance = usePlannerAction('attendance', onDone);
  const undoNoShow = useUndoNoShow();
  const seatRange = oneSeatRange(cells);
  const client = useQueryClient();
  const [due, setDue] = useState<Due | null>(null);

  return (
    <>
      <Dropdown>
        <Dropdown.Toggle size="sm" disabled={cells.length === 0}>
          With Selected{cells.length > 0 ? ` (${cells.length})` : ''}
        </Dropdown.Toggle>
        <Dropdown.Menu>
          <Dropdown.Item
            as="button"
            disabled={!allowed.blackout}
            onClick={() => setDialog('blackout')}
          >
            Blackout Selected Times
          </Dropdown.Item>
          <Dropdown.Item as="button" disabled={!allowed.delete} onClick={() => setDialog('delete')}>
            Delete Reservations
          </Dropdown.Item>
          <Dropdown.Divider />
          <Dropdown.Item as="button" disabled={!allowed.book} onClick={() => setDialog('book')}>
            Book for a Customer
          </Dropdown.Item>
          <Dropdown.Item as="button" disabled={!allowed.move} onClick={() => setDialog('move')}>
            Move Reservation
          </Dropdown.Item>
          <Dropdown.Item
            as="button"
            disabled={!allowed.attendance}
            onClick={() => attendance.mutate({ reservations: ids, attendance: 'checked_in' })}
          >
            Check In
          </Dropdown.Item>
          <Dropdown.Item
            as="button"
            disabled={!allowed.attendance}
            onClick={() => setDialog('no_show')}
          >
            Mark No-show…
          </Dropdown.Item>
          <Dropdown.Item
            as="button"
            disabled={seatRange === null}
            onClick={() => seatRange && onOutOfService(seatRange)}
          >
            Take Seat Out of Service
          </Dropdown.Item>
          <Dropdown.Divider />
          <Dropdown.Item as="button" onClick={onDone}>
            Clear Selection
          </Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown>
      {dialog === 'blackout' && <BlackoutDialog slots={slots} onClose={close} onDone={finish} />}
      {dialog === 'delete' && <DeleteDialog ids={ids} onClose={close} onDone={finish} />}
      {dialog === 'book' && (
        <BookDialog day={day} slots={slots} onClose={close} onDone={finish} onToPay={setDue} />
      )}
      {dialog === 'no_show' && (
        <NoShowDialog
          count={ids.length}
          busy={attendance.isPending}
          onClose={close}
          onConfirm={() => {
            const marked = ids;
            attendance.mutate(
              { reservations: marked, attendance: 'no_show' },
              {
                onSettled: close,
                // The same message again, now with Undo (a slip at the desk is put right at once).
                onSuccess: (result) =>
                  showAlert(result.detail, 'success', 15_000, {
                    label: 'Undo',
                    onClick: () => undoNoShow.mutate(marked),
                  }),
              },
            );
          }}
        />
      )}
      {due && (
        <TakePaymentModal
          show
          userId={due.user}
          customer={due.customer}
          owedCents={due.total_cents}
          currency={due.currency}
          bookings={due.bookings}
          onHide={() => setDue(null)}
          onPaid={(answer) => {
            showAlert(answer.detail, 'success', 5_000);
            setDue(null);
            void client.invalidateQueries({ queryKey: ['planner'] });
          }}
        />
      )}
      {dialog === 'move' && cells[0]?.entry && (
        <MoveDialog day={day} cell={cells[0]} onClose={close} onDone={finish} />
      )}
    </>
  );
}

type SeatSlot = { calendar: number; slot: string };
type DialogProps = { onClose: () => void; onDone: () => void };

function BlackoutDialog({ slots, onClose, onDone }: DialogProps & { slots: SeatSlot[] }) {
  const [notes, setNotes] = useState('');
  const blackout = usePlannerAction('blackout', onDone);
  return (
    <Modal aria-labelledby="planner-modal-3" show onHide={onClose}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          blackout.mutate({ slots, notes });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="planner-modal-3" className="h5">
            Blackout Selected Times
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            {slots.length} time{slots.length === 1 ? '' : 's'} will be blacked out.
          </p>
          <Form.Group controlId="blackout-notes">
            <Form.Label>Notes</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              maxLength={1000}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
              autoFocus
            />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={blackout.isPending}>
            Blackout
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** Mark No-show asks first: it can keep the customer's money, and the customer is e-mailed. */
function NoShowDialog({
  count,
  busy,
  onClose,
  onConfirm,
}: {
  count: number;
  busy: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal aria-labelledby="planner-modal-noshow" show onHide={onClose}>
      <Modal.Header closeButton>
        <Modal.Title as="h2" id="planner-modal-noshow" className="h5">
          Mark No-show
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          Mark {count} reservation{count === 1 ? '' : 's'} as a no-show? Under the cancellation
          policy a no-show keeps what the policy keeps for a late cancellation; anything it gives
          back goes back now, and the customer is e-mailed.
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose} autoFocus>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          Mark No-show
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

const REFUND_OPTIONS: { value: RefundChoice; label: string }[] = [
  { value: 'policy', label: 'Refund per the cancellation policy' },
  { value: 'full', label: 'Full refund' },
  { value: 'none', label: 'No refund (give a reason)' },
];

/** Delete Reservations, with what the customers get back (blackouts have nothing to refund). */
function DeleteDialog({ ids: selected, onClose, onDone }: DialogProps & { ids: number[] }) {
  // The bookings selected when the dialog opened: the day refreshing under it (the delete's own
  // change arriving before its answer) must not turn the quote into one for nothing (a 400).
  const [ids] = useState(selected);
  const remove = usePlannerAction('delete', onDone);
  const [refund, setRefund] = useState<RefundChoice>('policy');
  const [reason, setReason] = useState('');
  const needsReason = refund === 'none' && reason.trim() === '';
  // How much goes back and how, booking by booking, before staff confirm (issue 41): the same
  // figure the toast repeats after.
  const quote = useQuery(deleteQuoteQuery(ids, refund));
  return (
    <Modal aria-labelledby="planner-modal-4" show onHide={onClose}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          if (!needsReason) remove.mutate({ reservations: ids, refund, reason: reason.trim() });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="planner-modal-4" className="h5">
            Delete Reservations
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            Delete {ids.length} reservation{ids.length === 1 ? '' : 's'}? They stay in the books as
            cancelled.
          </p>
          <fieldset>
            <legend className="h6">Refund to the customers</legend>
            {REFUND_OPTIONS.map((o) => (
              <Form.Check
                key={o.value}
                type="radio"
                name="delete-refund"
                id={`delete-refund-${o.value}`}
                label={o.label}
                checked={refund === o.value}
                onChange={() => setRefund(o.value)}
              />
            ))}
          </fieldset>
          <section className="mt-3" aria-labelledby="delete-refund-quote" aria-live="polite">
            <h3 className="h6" id="delete-refund-quote">
              What goes back
            </h3>
            {quote.isPending && <p className="mb-0">Working out the refund…</p>}
            {quote.isError && (
              <Alert variant="danger" className="py-2 mb-0">
                {checkoutErrorMessage(quote.error)}
              </Alert>
            )}
            {quote.data && (
              <>
                {quote.data.bookings.length > 1 &&
                  quote.data.bookings.map((b) => (
                    <p key={b.reservation} className="mb-1">
                      {b.customer ?? 'Customer'}, {b.calendar_name}, {formatSlotTime(b.slot)}:{' '}
                      {b.lines.join('; ')}
                    </p>
                  ))}
                <p className="mb-0 fw-bold">{quote.data.summary}</p>
              </>
            )}
          </section>
          {refund === 'none' && (
            <Form.Group controlId="delete-refund-reason" className="mt-2">
              <Form.Label>Reason</Form.Label>
              <Form.Control
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
                required
              />
            </Form.Group>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose} autoFocus>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="danger"
            disabled={remove.isPending || needsReason || !quote.data}
          >
            Delete
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

function BookDialog({
  day,
  slots,
  onClose,
  onDone,
  onToPay,
}: DialogProps & { day: PlannerDay; slots: SeatSlot[]; onToPay: (due: Due) => void }) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 300);
  const users = useQuery(userSearchQuery(search));
  const [user, setUser] = useState<number | null>(null);
  // A walk-in with no account gets one here, without leaving the dialog (issue 30).
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<User | null>(null);
  const found = users.data?.results ?? [];
  const [payment, setPayment] = useState<'card' | 'desk'>('desk');
  const book = usePlannerAction('book', onDone);
  const chosen = [...(created ? [created] : []), ...found].find((u) => u.id === user);
  // A walk-in who pays now: booked, then Take Payment opens right here for exactly that sale
  // (decision 0116): the planner permission may finish it, where the customer's page needs more.
  const bookAndPay = () => {
    if (user === null) return;
    // mutateAsync: the dialog closes on success, and a closed dialog's mutate callbacks never
    // run. A refusal is already shown by the action's own error handler.
    book
      .mutateAsync({ user, slots, payment: 'desk' })
      .then((result) => {
        if (result.payment_due)
          onToPay({ ...result.payment_due, customer: chosen ? userLabel(chosen) : 'the customer' });
      })
      .catch(() => {});
  };
  // Seat, time and price from the pricing rule the booking itself uses (the customer's club
  // standing waives fees): known once a customer is chosen.
  const price = useQuery(bookQuoteQuery(user === null ? null : { user, slots }));
  const total = price.data ? formatMoney(price.data.total_cents, price.data.currency) : null;
  return (
    <Modal aria-labelledby="planner-modal-5" show onHide={onClose} scrollable>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          if (user !== null) book.mutate({ user, slots, payment });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="planner-modal-5" className="h5">
            Book for a Customer
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId="book-user-search" className="mb-2">
            <Form.Label>Customer</Form.Label>
            <Form.Control
              type="search"
              placeholder="Name, e-mail or phone"
              value={text}
              onChange={(e) => setText(e.target.value)}
              autoFocus
            />
          </Form.Group>
          <fieldset className="mb-3">
            <legend className="visually-hidden">Matching customers</legend>
            {[
              ...(created && !found.some((u) => u.id === created.id) ? [created] : []),
              ...found,
            ].map((u) => (
              <Form.Check
                key={u.id}
                type="radio"
                name="book-user"
                id={`book-user-${u.id}`}
                checked={user === u.id}
                onChange={() => setUser(u.id)}
                label={
                  <>
                    {userLabel(u)} <UserBadges user={u} />
                  </>
                }
              />
            ))}
            {users.isSuccess && found.length === 0 && !created && <p>No users found.</p>}
          </fieldset>
          {creating ? (
            <NewCustomerForm
              search={text}
              onCancel={() => setCreating(false)}
              onCreated={(u) => {
                setCreated(u);
                setUser(u.id);
                setCreating(false);
              }}
            />
          ) : (
            search !== '' && (
              <Button
                variant="outline-primary"
                size="sm"
                className="mb-3"
                onClick={() => setCreating(true)}
              >
                New Customer
              </Button>
            )
          )}
          <BookingSummary day={day} slots={slots} price={price.data ?? null} />
          {price.isError && (
            <Alert variant="danger" className="py-2">
              {checkoutErrorMessage(price.error)}
            </Alert>
          )}
          <fieldset>
            <legend className="h6">Payment</legend>
            <Form.Check
              type="radio"
              name="book-payment"
              id="book-payment-desk"
              label="Pay at desk (left unpaid)"
              checked={payment === 'desk'}
              onChange={() => setPayment('desk')}
            />
            <Form.Check
              type="radio"
              name="book-payment"
              id="book-payment-card"
              label="Charge the saved card now"
              checked={payment === 'card'}
              onChange={() => setPayment('card')}
            />
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          {payment === 'desk' && (
            <Button
              variant="outline-primary"
              disabled={user === null || !price.data || book.isPending}
              onClick={bookAndPay}
            >
              Book and Take Payment
            </Button>
          )}
          <Button type="submit" disabled={user === null || !price.data || book.isPending}>
            Book {slots.length} time{slots.length === 1 ? '' : 's'}
            {total ? ` for ${total}` : ''}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** What is booked: each seat and time with its price, and the total once a customer is chosen. */
function BookingSummary({
  day,
  slots,
  price,
}: {
  day: PlannerDay;
  slots: SeatSlot[];
  price: PlannerBookPrice | null;
}) {
  const seatName = (id: number) => day.seats.find((s) => s.id === id)?.name ?? `Seat ${id}`;
  const money = (cents: number) => formatMoney(cents, price?.currency);
  const fees = price?.lines.reduce((sum, l) => sum + l.fee_cents, 0) ?? 0;
  return (
    <Table size="sm" className="mb-3" aria-label="What is booked">
      <thead>
        <tr>
          <th scope="col">Seat</th>
          <th scope="col">Time</th>
          <th scope="col" className="text-end">
            Price
          </th>
        </tr>
      </thead>
      <tbody>
        {slots.map((s, i) => (
          <tr key={`${s.calendar}|${s.slot}`}>
            <td>{seatName(s.calendar)}</td>
            <td>{formatSlotTime(s.slot)}</td>
            <td className="text-end">{price ? money(price.lines[i].cost_cents) : '—'}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {fees > 0 && (
          <tr>
            <td colSpan={2}>Booking fees</td>
            <td className="text-end">{money(fees)}</td>
          </tr>
        )}
        {price && price.tax_cents > 0 && (
          <tr>
            <td colSpan={2}>Tax</td>
            <td className="text-end">{money(price.tax_cents)}</td>
          </tr>
        )}
        <tr>
          <th scope="row" colSpan={2}>
            Total
          </th>
          <td className="text-end fw-bold">
            {price ? money(price.total_cents) : 'Choose a customer to see the price'}
          </td>
        </tr>
      </tfoot>
    </Table>
  );
}

function MoveDialog({ day, cell, onClose, onDone }: DialogProps & { day: PlannerDay; cell: Cell }) {
  const [seat, setSeat] = useState(String(cell.calendar));
  const [slot, setSlot] = useState(cell.slot);
  const move = usePlannerAction('move', onDone);
  const taken = new Set(day.entries.map((e) => `${e.calendar}|${e.slot}`));
  const free = day.slots.filter((s) => !taken.has(`${seat}|${s.slot}`));
  const chosen = free.some((s) => s.slot === slot);
  const moving = chosen && !(Number(seat) === cell.calendar && slot === cell.slot);
  // The money of the move, as the customer's own move would do it (one rule).
  const quote = useQuery(
    moveQuoteQuery(cell.entry!.id, moving ? { calendar: Number(seat), slot } : null),
  );
  return (
    <Modal aria-labelledby="planner-modal-6" show onHide={onClose}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          move.mutate({ reservation: cell.entry!.id, calendar: Number(seat), slot });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="planner-modal-6" className="h5">
            Move {cell.entry?.user_display_name}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId="move-seat" className="mb-2">
            <Form.Label>Seat</Form.Label>
            <Form.Select value={seat} onChange={(e) => setSeat(e.target.value)}>
              {day.seats.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group controlId="move-time">
            <Form.Label>Time</Form.Label>
            <Form.Select value={slot} onChange={(e) => setSlot(e.target.value)}>
              {!free.some((s) => s.slot === slot) && <option value="">Choose a free time</option>}
              {free.map((s) => (
                <option key={s.slot} value={s.slot}>
                  {formatSlotTime(s.slot)}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          {quote.data && (
            <div className="mt-3" aria-live="polite">
              <h3 className="h6">Price for the customer</h3>
              {quote.data.lines.map((line) => (
                <p key={line} className="mb-1">
                  {line}
                </p>
              ))}
            </div>
          )}
          {quote.isError && (
            <Alert variant="danger" className="mt-3 py-2">
              {checkoutErrorMessage(quote.error)}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={move.isPending || !moving || !quote.data}>
            Move
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
