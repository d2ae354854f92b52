import Table from 'react-bootstrap/Table';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@paddock/contract/charges';
import type { TakingsByMethod } from '@paddock/contract/reports';

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
    </Table>
  );
}
