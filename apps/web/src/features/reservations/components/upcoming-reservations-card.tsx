import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { formatSlotDateTime } from '../../../lib/slot-format';
import { AddToCalendar } from './add-to-calendar';
import { useUpcomingReservations } from './use-upcoming-reservations';

/** Dashboard (customer §2): upcoming reservations with date and time, simulator, calendar link. */
export function UpcomingReservationsCard() {
  const { reservations, locationOf } = useUpcomingReservations();
  let body;
  if (reservations.isPending) body = <SpinnerScreen label="Loading reservations…" />;
  else if (reservations.isError) {
    body = <p className="text-danger mb-0">{errorMessage(reservations.error)}</p>;
  } else if (!reservations.data.length) {
    body = (
      <p className="mb-0">
        You have no upcoming reservations. <Link to={pathTo('reservationsAdvanced')}>Book Now</Link>
      </p>
    );
  } else {
    body = (
      <div className="table-responsive">
        <table className="table align-middle mb-0 paddock-stack-table">
          <thead>
            <tr>
              <th scope="col">Date and Time</th>
              <th scope="col">Simulator</th>
              <th scope="col">Calendar</th>
            </tr>
          </thead>
          <tbody>
            {reservations.data.map((r) => (
              <tr key={r.id}>
                <td data-label="Date and Time">
                  {formatSlotDateTime(r.slot)}
                  <span className="d-block small text-body-secondary">
                    {r.duration_minutes} minutes
                    {!r.paid && (
                      <Badge bg="warning" text="dark" className="ms-2">
                        Unpaid
                      </Badge>
                    )}
                  </span>
                </td>
                <td data-label="Simulator">{r.calendar_name}</td>
                <td data-label="Calendar">
                  <AddToCalendar reservation={r} location={locationOf(r.location)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h4 card-title mb-3">Upcoming Reservations</h2>
        {body}
      </Card.Body>
    </Card>
  );
}
