import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import type { Report } from '@paddock/contract/reports';
import { ScrollTable } from './scroll-table';

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
];
const HOURS = Array.from({ length: 24 }, (_, h) => h);
export const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** Share of the hour's half-hours booked, 0–100 (0 when the period never has that hour). */
export function percent(booked: number, capacity: number): number {
  return capacity === 0 ? 0 : Math.round((booked / capacity) * 100);
}

// Five shades, each with a text colour that keeps WCAG AA contrast on it.
const SHADES = [
  { bg: '#f8f9fa', fg: '#212529' },
  { bg: '#cfe2ff', fg: '#052c65' },
  { bg: '#9ec5fe', fg: '#052c65' },
  { bg: '#3d8bfd', fg: '#000000' },
  { bg: '#0a58ca', fg: '#ffffff' },
];
const shade = (p: number) => SHADES[p === 0 ? 0 : Math.min(4, Math.ceil(p / 25))];

/**
 * Seat utilisation per hour of the week: one seat or all of them (their average), weekdays as
 * rows and hours as columns; the table scrolls sideways on a phone.
 */
export function UtilisationHeatmap({ utilisation }: { utilisation: Report['utilisation'] }) {
  const [seat, setSeat] = useState('all');
  const selectId = useId();
  const chosen =
    seat === 'all' ? utilisation.seats : utilisation.seats.filter((s) => String(s.id) === seat);
  const booked = (i: number) => chosen.reduce((sum, s) => sum + s.booked[i], 0);
  const cap = (i: number) => utilisation.capacity[i] * chosen.length;

  return (
    <>
      <Form.Group className="mb-2" style={{ maxWidth: '20rem' }}>
        <Form.Label htmlFor={selectId}>Seat</Form.Label>
        <Form.Select id={selectId} value={seat} onChange={(e) => setSeat(e.target.value)}>
          <option value="all">All seats</option>
          {utilisation.seats.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <p className="small text-body-secondary mb-1">
        Each cell: % of the hour&rsquo;s half-hours booked; hours on the location&rsquo;s clock.
      </p>
      <ScrollTable label="Utilisation heatmap">
        <Table
          bordered
          size="sm"
          className="text-center small utilisation-heatmap"
          aria-label="Seat utilisation by hour of the week (% of half-hours booked)"
        >
          <thead>
            <tr>
              <th scope="col">Day</th>
              {HOURS.map((h) => (
                <th scope="col" key={h}>
                  {String(h).padStart(2, '0')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {WEEKDAYS.map((day, d) => (
              <tr key={day}>
                <th scope="row" className="text-start">
                  {day.slice(0, 3)}
                </th>
                {HOURS.map((h) => {
                  const i = d * 24 + h;
                  const p = percent(booked(i), cap(i));
                  const { bg, fg } = shade(p);
                  return (
                    <td
                      key={h}
                      style={{ backgroundColor: bg, color: fg }}
                      title={`${day} ${hourLabel(h)}: ${p}% booked`}
                    >
                      {p}%
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </Table>
      </ScrollTable>
    </>
  );
}
