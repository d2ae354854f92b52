import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import type { QuoteResponse } from '@paddock/contract/checkout';
import { formatMoney } from '@paddock/contract/money-format';
import { pathTo } from '../../lib/routes';
import { useVenueConfig } from '../../lib/venue-config';

type Props = { quote: QuoteResponse; isMember: boolean };

/**
 * The checkout's club panel: what a member would save on this booking, or what a member is
 * paying with. Nothing at all when the club is switched off.
 */
export function ClubSavingsPanel({ quote, isMember }: Props) {
  const config = useVenueConfig();
  if (!config.club_enabled) return null;
  if (isMember) {
    return (
      <Alert variant="success" className="mb-3">
        {quote.credits_using > 0
          ? `${config.club_name}: paying ${formatMoney(quote.credits_value_cents, quote.currency)} with ${quote.credits_using} credits. Booking fees are waived for members.`
          : `${config.club_name}: booking fees are waived for members.`}
      </Alert>
    );
  }
  if (quote.credits_program_saves <= 0) return null;
  return (
    <Alert variant="info" className="mb-3">
      <strong>{config.club_name}</strong> members would save{' '}
      <strong>{formatMoney(quote.credits_program_saves, quote.currency)}</strong> on this booking:{' '}
      {config.club_discount_percent}% off every race and no booking fees.{' '}
      <Link to={pathTo('subscription')} className="alert-link">
        Join the {config.club_name}
      </Link>
    </Alert>
  );
}
