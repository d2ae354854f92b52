import Spinner from 'react-bootstrap/Spinner';
import type { CreditsQuote } from '@paddock/contract/club';
import { formatMoney } from '@paddock/contract/money-format';
import { useVenueConfig } from '../../../lib/venue-config';

type Props = {
  quote: CreditsQuote | undefined;
  /** The quote shown is for another count than the spinner's (a newer one is on its way). */
  stale: boolean;
  error?: string;
};

/** The live price of a plan: list price, the club discount, the monthly total, the first charge. */
export function ClubQuote({ quote, stale, error }: Props) {
  const config = useVenueConfig();
  if (error) return <p className="text-danger">{error}</p>;
  if (!quote) {
    return (
      <p role="status" className="text-body-secondary">
        <Spinner as="span" size="sm" className="me-2" aria-hidden="true" />
        Calculating your price…
      </p>
    );
  }
  const saving = quote.quoted_cents - quote.total_cents;
  const currency = config.default_currency;
  return (
    <div aria-live="polite" aria-busy={stale} className={stale ? 'opacity-50' : undefined}>
      <dl className="row mb-2">
        <dt className="col-7 fw-normal">Price</dt>
        <dd className="col-5 text-end mb-1">{formatMoney(quote.quoted_cents, currency)}</dd>
        <dt className="col-7 fw-normal">Club discount ({quote.discount_percent}%)</dt>
        <dd className="col-5 text-end mb-1 text-success">−{formatMoney(saving, currency)}</dd>
        <dt className="col-7">Total per month</dt>
        <dd className="col-5 text-end mb-1 fw-bold fs-5">
          {formatMoney(quote.total_cents, currency)}
        </dd>
        {quote.first_charge_cents !== quote.total_cents && (
          <>
            <dt className="col-7 fw-normal">Charged today (first-race offer)</dt>
            <dd className="col-5 text-end mb-1">
              {formatMoney(quote.first_charge_cents, currency)}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
