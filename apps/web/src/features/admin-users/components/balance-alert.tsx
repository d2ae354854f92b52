import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import type { Balance, CostBreakdown } from '@paddock/contract/reservations';
import { formatMoney } from '@paddock/contract/money-format';
import { costBreakdownQuery } from '../api/get-cost-breakdown';

/** Staff spec §3: what the card would be charged, item by item (description, qty, each, amount). */
function CostBreakdownTable({ cost }: { cost: CostBreakdown }) {
  return (
    <Table size="sm" className="mb-0 mt-3 table-danger">
      <caption className="caption-top fw-semibold text-danger-emphasis">Cost breakdown</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col" className="text-end">
            Qty
          </th>
          <th scope="col" className="text-end">
            Each
          </th>
          <th scope="col" className="text-end">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {cost.items.map((item) => (
          <tr key={`${item.description}|${item.amount_each}`}>
            <td>{item.description}</td>
            <td className="text-end">{item.qty}</td>
            <td className="text-end text-nowrap">{formatMoney(item.amount_each, cost.currency)}</td>
            <td className="text-end text-nowrap">{formatMoney(item.amount, cost.currency)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={3}>
            Total
          </th>
          <td className="text-end text-nowrap fw-semibold">
            {formatMoney(cost.total, cost.currency)}
          </td>
        </tr>
      </tfoot>
    </Table>
  );
}

/**
 * Staff spec §2: the red alert with the outstanding balance and its items (description,
 * amount), and the cost breakdown. Nothing when nothing is owed.
 */
export function BalanceAlert({ balance, userId }: { balance: Balance; userId: number }) {
  const owed = balance.amount_cents > 0 || balance.detail.length > 0;
  const cost = useQuery({ ...costBreakdownQuery(userId), enabled: owed });
  if (!owed) return null;
  return (
    <Alert variant="danger" className="mb-4">
      <Alert.Heading as="h2" className="h5">
        Outstanding balance: {formatMoney(balance.amount_cents, balance.currency)}
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
              <td className="text-end text-nowrap">
                {formatMoney(item.amount_cents, item.currency)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="text-end text-nowrap fw-semibold">
              {formatMoney(balance.amount_cents, balance.currency)}
            </td>
          </tr>
        </tfoot>
      </Table>
      {cost.data && cost.data.items.length > 0 && <CostBreakdownTable cost={cost.data} />}
    </Alert>
  );
}
