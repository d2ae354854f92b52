import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import type { PlannerDay } from '@paddock/contract/planner';
import { formatSlotTime } from '../../../lib/slot-format';
import { checkoutErrorMessage } from '../../../lib/booking-errors';
import { outOfServicePreviewQuery, useTakeOutOfService } from '../api/planner-api';
import { OutOfServiceParties } from './out-of-service-parties';

export type OutOfServiceRange = { calendar: number; from: string; to: string };

/** The times a seat can be taken out of service from: the current slot on (a past day: all). */
function selectableSlots(day: PlannerDay) {
  const ahead = day.slots.filter((s) => s.slot >= day.now_slot);
  return ahead.length > 0 ? ahead : day.slots;
}

/** From now (or the day's first time, on a later day) to the day's last time. */
export function defaultRange(day: PlannerDay, seat: number): OutOfServiceRange {
  const slots = selectableSlots(day);
  return { calendar: seat, from: slots[0].slot, to: slots[slots.length - 1].slot };
}

type Props = {
  day: PlannerDay;
  initial: OutOfServiceRange;
  onClose: () => void;
  onDone: () => void;
};

/**
 * A rig breaks (issue 30): one dialog shows the bookings the range affects and where each goes
 * (a free seat of the same type at the same time, or cancelled and refunded), and one button
 * does it all and e-mails the customers.
 */
export function OutOfServiceDialog({ day, initial, onClose, onDone }: Props) {
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [notes, setNotes] = useState('');
  const [refund, setRefund] = useState<'full' | 'policy'>('full');
  const range = { calendar: initial.calendar, from, to };
  const preview = useQuery(outOfServicePreviewQuery(range));
  const take = useTakeOutOfService(onDone);
  const seat = day.seats.find((s) => s.id === initial.calendar);
  const slots = selectableSlots(day);
  const plan = preview.data;
  const cancelled = plan?.bookings.filter((b) => b.to_calendar === null) ?? [];
  return (
    <Modal aria-labelledby="planner-modal-oos" show onHide={onClose} scrollable size="lg">
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          take.mutate({ ...range, notes, refund });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="planner-modal-oos" className="h5">
            Take {seat?.name} Out of Service
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <div className="d-flex flex-wrap gap-2 mb-2">
            <Form.Group controlId="oos-from">
              <Form.Label>From</Form.Label>
              <Form.Select value={from} onChange={(e) => setFrom(e.target.value)}>
                {slots.map((s) => (
                  <option key={s.slot} value={s.slot}>
                    {formatSlotTime(s.slot)}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <Form.Group controlId="oos-to">
              <Form.Label>Until (last time included)</Form.Label>
              <Form.Select value={to} onChange={(e) => setTo(e.target.value)}>
                {slots.map((s) => (
                  <option key={s.slot} value={s.slot}>
                    {formatSlotTime(s.slot)}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </div>
          <Form.Group controlId="oos-notes" className="mb-3">
            <Form.Label>What is wrong (shown on the blackouts)</Form.Label>
            <Form.Control
              value={notes}
              maxLength={1000}
              onChange={(e) => setNotes(e.target.value)}
              placeholder="Out of service"
            />
          </Form.Group>
          {preview.isError && <Alert variant="danger">{checkoutErrorMessage(preview.error)}</Alert>}
          {plan && (
            <>
              <p className="mb-2">
                {plan.times} time{plan.times === 1 ? '' : 's'} will be blacked out.{' '}
                {plan.bookings.length === 0
                  ? 'No booking is affected.'
                  : `${plan.bookings.length} booking${plan.bookings.length === 1 ? ' is' : 's are'} affected; their customers are told by e-mail.`}
              </p>
              {plan.bookings.length > 0 && (
                <Table size="sm" responsive className="mb-2">
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Driver</th>
                      <th scope="col">What happens</th>
                    </tr>
                  </thead>
                  <tbody>
                    {plan.bookings.map((b) => (
                      <tr key={b.reservation}>
                        <td>{formatSlotTime(b.slot)}</td>
                        {/* A long e-mail as the name wraps on a phone instead of widening the table. */}
                        <td className="text-break">
                          {b.user_display_name ?? '—'}{' '}
                          <Badge
                            bg={b.paid ? 'success' : 'warning'}
                            text={b.paid ? undefined : 'dark'}
                          >
                            {b.paid ? 'Paid' : 'Unpaid'}
                          </Badge>
                        </td>
                        <td>
                          {b.to_calendar_name
                            ? `Moves to ${b.to_calendar_name}, same time and price`
                            : 'No comparable seat free: cancelled'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
              <OutOfServiceParties seat={plan.calendar_name} parties={plan.parties} />
              {cancelled.some((b) => b.paid) && (
                <fieldset>
                  <legend className="h6">Refund for the cancelled bookings</legend>
                  <Form.Check
                    type="radio"
                    name="oos-refund"
                    id="oos-refund-full"
                    label="Full refund"
                    checked={refund === 'full'}
                    onChange={() => setRefund('full')}
                  />
                  <Form.Check
                    type="radio"
                    name="oos-refund"
                    id="oos-refund-policy"
                    label="Refund per the cancellation policy"
                    checked={refund === 'policy'}
                    onChange={() => setRefund('policy')}
                  />
                </fieldset>
              )}
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!plan || take.isPending}>
            Take Out of Service
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
