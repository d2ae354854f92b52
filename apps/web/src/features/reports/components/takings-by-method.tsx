import Table from 'react-bootstrap/Table';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@paddock/contract/charges';
import type { TakingsByMethod } from '@paddock/contract/reports';

/** Not money taken (outside the total): what else paid, and what the bookings' prices held. */
const OTHERWISE = [
  ['Paid with vouchers', 'voucher_cents'],
  ['Paid with club credits', 'credits_cents'],
  ['Booking fees in paid checkouts', 'fees_cents'],
  ['Sales tax in paid checkouts', 'tax_cents'],
] as const;

/**
 * Money taken in the period by how it was paid, less refunds given back the same way (0083).
 * One method a row, so it fits a phone's width.
 */
export function TakingsByMethodTable({
  takings,
  formatCents,
}: {
  takings: TakingsByMethod;
  formatCents: (cents: number) => string;
}) {
  return (
    <Table size="sm" className="w-auto mb-3">
      <caption className="caption-top">
        Takings by method (venue-wide, by the day taken, less refunds)
      </caption>
      <thead>
        <tr>
          <th scope="col">Method</th>
          <th scope="col" className="text-end">
            Taken
          </th>
        </tr>
      </thead>
      <tbody>
        {PAYMENT_METHODS.map((m) => (
          <tr key={m}>
            <th scope="row" className="fw-normal">
              {m === 'card' ? 'Card online' : PAYMENT_METHOD_LABELS[m]}
            </th>
            <td className="text-end">{formatCents(takings[`${m}_cents`])}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">Total</th>
          <td className="text-end fw-semibold">{formatCents(takings.total_cents)}</td>
        </tr>
      </tbody>
      <tbody className="border-top">
        {OTHERWISE.map(([label, key]) => (
          <tr key={key}>
            <th scope="row" className="fw-normal">
              {label}
            </th>
            <td className="text-end">{formatCents(takings[key])}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
