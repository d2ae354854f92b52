import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { WaitlistEntry } from '@paddock/contract/refunds';
import { showAlert, showError } from '../../../lib/alerts';
import { formatInstantTime, formatSlotDateTime } from '../../../lib/slot-format';
import { bookSeatAtPath } from '@paddock/contract/calendars';
import { Link } from 'react-router';
import { useLeaveWaitlist } from '../api/leave-waitlist';
import { myWaitlistQuery } from '../api/list-waitlist';

function status(entry: WaitlistEntry): string {
  if (entry.status === 'offered' && entry.hold_until)
    return `${entry.calendar_name ?? 'A seat'} is held for you until ${formatInstantTime(entry.hold_until)}.`;
  return `Number ${entry.position ?? '?'} in line.`;
}

/**
 * Dashboard: the customer's own waitlist entries (asked for on a full slot), each with its place
 * in line or the seat held for them, and a Leave button. Hidden when there are none.
 */
export function WaitlistCard() {
  const entries = useQuery(myWaitlistQuery);
  const leave = useLeaveWaitlist();
  if (!entries.data?.length) return null;
  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h4 card-title mb-3">Waitlist</h2>
        <ul className="list-unstyled mb-0">
          {entries.data.map((entry) => {
            const when = formatSlotDateTime(entry.slot);
            return (
              <li
                key={entry.id}
                className="d-flex flex-wrap align-items-center justify-content-between gap-2 py-2 border-bottom"
              >
                <div>
                  <div>
                    {when}, {entry.location_name}
                  </div>
                  <div className="small text-body-secondary">
                    {status(entry)}{' '}
                    {entry.status === 'offered' && entry.calendar !== null && (
                      <Link to={bookSeatAtPath(entry.calendar, entry.slot)}>Book it now</Link>
                    )}
                  </div>
                </div>
                <Button
                  variant="outline-secondary"
                  size="sm"
                  disabled={leave.isPending}
                  aria-label={`Leave the waitlist for ${when}`}
                  onClick={() =>
                    leave.mutate(entry.id, {
                      onSuccess: () => showAlert('You left the waitlist.', 'success'),
                      onError: (error) => showError(error),
                    })
                  }
                >
                  Leave
                </Button>
              </li>
            );
          })}
        </ul>
      </Card.Body>
    </Card>
  );
}
