import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PlainAlert } from '../../../components/plain-alert';
import { useCurrentUser } from '../../../lib/current-user';
import { pathTo } from '../../../lib/routes';
import { useVenueConfig } from '../../../lib/venue-config';

/** Customer §2: the club alert appears one second after the screen loads. */
export const CLUB_ALERT_DELAY_MS = 1_000;

/**
 * The club promotion on the booking screen, for customers who are not members. Nothing at all
 * when the club is switched off.
 *
 * Its place is taken from the first paint: until the second has passed an invisible copy holds
 * the space (so the screen does not jump down under the customer's finger, issue 14's layout
 * shift), then the real alert is put into the polite live region and announced.
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

  if (!config.club_enabled || dismissed || !user) return null;
  if (user.credits_subscription_exists) return null;
  const text: ReactNode = (
    <>
      Join the <strong>{config.club_name}</strong> and save {config.club_discount_percent}% on every
      race, with no booking fees.{' '}
      <Link to={pathTo('subscription')} className="alert-link" tabIndex={visible ? undefined : -1}>
        Learn more
      </Link>
    </>
  );
  return (
    // A promotion, not an error: announced politely.
    <div role="status" className="mb-3">
      {visible ? (
        <PlainAlert
          variant="info"
          role={undefined}
          dismissible
          onClose={() => setDismissed(true)}
          closeLabel="Dismiss"
          className="mb-0"
        >
          {text}
        </PlainAlert>
      ) : (
        <PlainAlert
          variant="info"
          role={undefined}
          dismissible
          className="mb-0 invisible"
          aria-hidden
        >
          {text}
        </PlainAlert>
      )}
    </div>
  );
}
