import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import type { OpeningHours, SpecialHours } from '@paddock/contract/locations';
import { errorMessage } from '../../../lib/error-message';
import { countOf } from '../../../lib/plural';
import { previewSlots } from '../api/venue-setup-api';

type Props = {
  timezone: string;
  openingHours: OpeningHours;
  specialHours: SpecialHours;
  /** The date shown first (today at the location). */
  initialDate: string;
};

const BOOKABLE = { one: 'bookable slot', other: 'bookable slots' };

/** "2026-11-01T01:00" → "01:00". */
const clock = (slot: string) => slot.slice(11, 16);

/**
 * The bookable half-hours that the hours on the form (saved or not) open on a chosen date, as
 * the server computes them: DST days show their 46 or 50 half-hours.
 */
export function SlotPreviewPanel({ timezone, openingHours, specialHours, initialDate }: Props) {
  const [date, setDate] = useState(initialDate);
  const preview = useMutation({
    mutationFn: () =>
      previewSlots({
        date,
        timezone,
        opening_hours: openingHours,
        special_hours: specialHours,
      }),
  });
  const data = preview.data;
  return (
    <section className="mb-4" aria-labelledby="slot-preview-title">
      <h2 id="slot-preview-title" className="h5">
        Slot preview
      </h2>
      <div className="d-flex flex-wrap align-items-end gap-2 mb-2">
        <Form.Group controlId="slot-preview-date">
          <Form.Label>Preview date</Form.Label>
          <Form.Control type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </Form.Group>
        <Button
          variant="outline-primary"
          disabled={!date || preview.isPending}
          onClick={() => preview.mutate()}
        >
          {preview.isPending && <Spinner size="sm" className="me-2" aria-hidden />}
          Preview Slots
        </Button>
      </div>
      <div aria-live="polite">
        {preview.isError && <Alert variant="danger">{errorMessage(preview.error)}</Alert>}
        {data && (
          <>
            <p className="mb-2">
              {data.slots.length === 0
                ? `Closed on ${data.date}: no bookable slots.`
                : `${countOf(data.slots.length, BOOKABLE)} on ${data.date} (${data.timezone}).`}
              {data.half_hours_in_day !== 48 &&
                ` The clocks change that day: it has ${data.half_hours_in_day} half-hours.`}
            </p>
            {data.slots.length > 0 && (
              <ul className="list-inline small mb-0" aria-label={`Slots on ${data.date}`}>
                {data.slots.map((s) => (
                  <li
                    key={s.slot}
                    className="list-inline-item badge text-bg-light border me-1 mb-1"
                    title={s.time}
                  >
                    {clock(s.slot)}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </section>
  );
}
