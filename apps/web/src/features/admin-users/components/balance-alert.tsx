import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import type { Balance } from '@paddock/contract/reservations';
import { formatCents } from '../../../lib/money';

/**
 * Staff spec §2: the red alert with the outstanding balance and its items (description,
 * amount). Nothing when nothing is owed.
 */
export function BalanceAlert({ balance }: { balance: Balance }) {
  if (balance.amount_cents <= 0 && balance.detail.length === 0) return null;
  return (
    <Alert variant="danger" className="mb-4">
      <Alert.Heading as="h2" className="h5">
        Outstanding balance: {formatCents(balance.amount_cents)}
      </Alert.Heading>
      <Table size="sm" className="mb-0 table-danger">
        <caption className="visually-hidden">Outstanding items</caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col" className="text-end">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {balance.detail.map((item, i) => (
            <tr key={i}>
              <td>{item.description}</td>
              <td className="text-end text-nowrap">{formatCents(item.amount_cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="text-end text-nowrap fw-semibold">
              {formatCents(balance.amount_cents)}
            </td>
          </tr>
        </tfoot>
      </Table>
    </Alert>
  );
}
