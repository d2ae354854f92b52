import Badge from 'react-bootstrap/Badge';
import ListGroup from 'react-bootstrap/ListGroup';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { formatSlotDateTime, formatVenueZone } from '../../../lib/slot-format';
import { ZoneWarning } from '../../../components/zone-warning';
import { useVenueConfig } from '../../../lib/venue-config';
import { AddToCalendar } from './add-to-calendar';
import { useUpcomingReservations } from './use-upcoming-reservations';

/** The simple reservation page's list: each booking with its subscription and calendar links. */
export function UpcomingReservationsList() {
  const config = useVenueConfig();
  const { reservations, locationOf } = useUpcomingReservations();
  let body;
  if (reservations.isPending) body = <SpinnerScreen label="Loading reservations…" />;
  else if (reservations.isError) {
    body = <p className="text-danger">{errorMessage(reservations.error)}</p>;
  } else if (!reservations.data.length) {
    body = <p>You have no upcoming reservations.</p>;
  } else {
    body = (
      <>
        <ZoneWarning
          places={reservations.data.map((r) => ({ name: r.location_name, zone: r.timezone }))}
        />
        <ListGroup>
          {reservations.data.map((r) => (
            <ListGroup.Item key={r.id}>
              <div className="d-flex flex-wrap justify-content-between gap-2">
                <div>
                  <span className="fw-semibold">{formatSlotDateTime(r.slot)}</span>
                  <span className="d-block">
                    {r.calendar_name}, {r.duration_minutes} minutes
                  </span>
                  <span className="d-block small text-body-secondary">
                    {formatVenueZone(r.slot, r.location_name, r.timezone)}
                  </span>
                  <span className="d-block small text-body-secondary">
                    {r.paid_with_credits ? config.club_name : 'Pay per race'}
                    {!r.paid && (
                      <Badge bg="warning" text="dark" className="ms-2">
                        Unpaid
                      </Badge>
                    )}
                  </span>
                </div>
                <AddToCalendar reservation={r} location={locationOf(r.location)} />
              </div>
            </ListGroup.Item>
          ))}
        </ListGroup>
      </>
    );
  }
  return (
    <section aria-labelledby="upcoming-title" className="mt-4">
      <h2 id="upcoming-title" className="h4">
        Upcoming Reservations
      </h2>
      {body}
    </section>
  );
}
