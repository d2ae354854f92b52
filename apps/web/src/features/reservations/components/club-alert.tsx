import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import { useCurrentUser } from '../../../lib/current-user';
import { pathTo } from '../../../lib/routes';
import { useVenueConfig } from '../../../lib/venue-config';

/** Customer §2: the club alert appears one second after the screen loads. */
export const CLUB_ALERT_DELAY_MS = 1_000;

/**
 * The club promotion on the booking screen, for customers who are not members. Nothing at all
 * when the club is switched off.
 */
export function ClubAlert() {
  const config = useVenueConfig();
  const user = useCurrentUser().data;
  const [visible, setVisible] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), CLUB_ALERT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  if (!config.club_enabled || !visible || dismissed || !user) return null;
  if (user.credits_subscription_exists) return null;
  return (
    <Alert
      variant="info"
      // A promotion, not an error: announced politely.
      role="status"
      dismissible
      onClose={() => setDismissed(true)}
      closeLabel="Dismiss"
      className="mb-3"
    >
      Join the <strong>{config.club_name}</strong> and save {config.club_discount_percent}% on every
      race, with no booking fees.{' '}
      <Link to={pathTo('subscription')} className="alert-link">
        Learn more
      </Link>
    </Alert>
  );
}
