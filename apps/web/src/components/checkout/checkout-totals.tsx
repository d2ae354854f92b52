import type { QuoteResponse } from '@paddock/contract/checkout';
import { formatMoney } from '@paddock/contract/money-format';

type Props = {
  quote: QuoteResponse;
  /** The location's rate, shown beside Sales Tax. */
  taxRatePercent?: number;
  clubName?: string;
};

/**
 * The checkout's totals (staff §3 Checkout quote): seats and booking fees make the subtotal;
 * club credits and the voucher come off it; tax is on what remains; the total is charged.
 */
export function CheckoutTotals({ quote, taxRatePercent, clubName = 'Club' }: Props) {
  const seats = quote.line_items.reduce((sum, item) => sum + item.calendar_total_cents, 0);
  const fees = quote.line_items.reduce((sum, item) => sum + item.calendar_booking_fee_cents, 0);
  const rows: { label: string; cents: number; testId: string }[] = [
    { label: 'Simulators', cents: seats, testId: 'seats' },
    { label: 'Booking Fees', cents: fees, testId: 'fees' },
    { label: 'Subtotal', cents: quote.subtotal_cents, testId: 'subtotal' },
  ];
  if (quote.credits_value_cents > 0) {
    rows.push({
      label: `${clubName} Credits (${quote.credits_using})`,
      cents: -quote.credits_value_cents,
      testId: 'credits',
    });
  }
  // No discount is no line: "Discount -$0.00" read as if one had been taken off (issue 30).
  if (quote.discount_cents > 0)
    rows.push({ label: 'Discount', cents: -quote.discount_cents, testId: 'discount' });
  rows.push({
    label: taxRatePercent === undefined ? 'Sales Tax' : `Sales Tax (${taxRatePercent}%)`,
    cents: quote.sales_tax_cents,
    testId: 'tax',
  });
  return (
    <dl className="mb-0" aria-label="Totals">
      {rows.map((row) => (
        <div key={row.testId} className="d-flex justify-content-between" data-total={row.testId}>
          <dt className="fw-normal">{row.label}</dt>
          <dd className="mb-1 text-end font-monospace">{formatMoney(row.cents, quote.currency)}</dd>
        </div>
      ))}
      <div className="d-flex justify-content-between border-top pt-2 mt-1 fs-5" data-total="total">
        <dt>Total</dt>
        <dd className="mb-0 text-end font-monospace fw-bold">
          {formatMoney(quote.total_cents, quote.currency)}
        </dd>
      </div>
    </dl>
  );
}
