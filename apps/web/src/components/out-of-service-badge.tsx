import Badge from 'react-bootstrap/Badge';
import { OUT_OF_SERVICE } from '@paddock/contract/planner';

/**
 * A party place whose seat is out of service at the party's time (issue 41, decision 0117): on
 * the Parties and launcher screens, so nobody starts a race on a broken rig.
 */
export function OutOfServiceBadge({ show }: { show: boolean | undefined }) {
  if (!show) return null;
  return (
    <Badge bg="danger" className="ms-2" title="A blackout covers this seat at the party's time">
      {OUT_OF_SERVICE}
    </Badge>
  );
}
