import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import type { Reservation } from '@paddock/contract/reservations';
import { cancellationPolicyText } from '@paddock/contract/refund-policy';
import { useVenueConfig } from '../../../lib/venue-config';
import { useNow } from '../../../lib/use-now';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { formatSlotDateTime, formatVenueZone } from '../../../lib/slot-format';
import { ZoneWarning } from '../../../components/zone-warning';
import { AddToCalendar } from './add-to-calendar';
import { ExtendSessionButton } from './extend-session-button';
import { useUpcomingReservations } from './use-upcoming-reservations';

// Loaded when first opened: the dialogs' code (the move dialog's seat search, the modal) is not
// needed for the dashboard's first paint (decision 0064).
const CancelReservationDialog = lazy(() =>
  import('./cancel-reservation-dialog').then((m) => ({
    default: m.CancelReservationDialog,
  })),
);
const MoveReservationDialog = lazy(() =>
  import('./move-reservation-dialog').then((m) => ({ default: m.MoveReservationDialog })),
);

/** Dashboard (customer §2): upcoming reservations with date and time, simulator, calendar link. */
export function UpcomingReservationsCard() {
  const { reservations, locationOf } = useUpcomingReservations();
  const config = useVenueConfig();
  const now = useNow();
  const [cancelling, setCancelling] = useState<Reservation | null>(null);
  const [moving, setMoving] = useState<Reservation | null>(null);
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
        <ZoneWarning
          places={reservations.data.map((r) => ({ name: r.location_name, zone: r.timezone }))}
        />
        <table className="table align-middle mb-0 paddock-stack-table">
          <thead>
            <tr>
              <th scope="col">Date and Time</th>
              <th scope="col">Simulator</th>
              <th scope="col">Calendar</th>
              <th scope="col">
                <span className="visually-hidden">Move or cancel</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {reservations.data.map((r) => (
              <tr key={r.id}>
                <td data-label="Date and Time">
                  {formatSlotDateTime(r.slot)}
                  <span className="d-block small text-body-secondary">
                    {formatVenueZone(r.slot, r.location_name, r.timezone)}
                  </span>
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
                <td className="text-end text-nowrap">
                  {new Date(r.time).getTime() <= now &&
                    now < new Date(r.time).getTime() + r.duration_minutes * 60_000 && (
                      <ExtendSessionButton reservation={r} all={reservations.data} />
                    )}
                  {new Date(r.time).getTime() > now && (
                    <Button
                      variant="outline-primary"
                      size="sm"
                      className="me-2"
                      onClick={() => setMoving(r)}
                      aria-label={`Move ${r.calendar_name}, ${formatSlotDateTime(r.slot)}`}
                    >
                      Move
                    </Button>
                  )}
                  {new Date(r.time).getTime() > now && (
                    <Button
                      variant="outline-danger"
                      size="sm"
                      onClick={() => setCancelling(r)}
                      aria-label={`Cancel ${r.calendar_name}, ${formatSlotDateTime(r.slot)}`}
                    >
                      Cancel
                    </Button>
                  )}
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
        <p className="small text-body-secondary mt-3 mb-0">
          Cancellation policy:{' '}
          {cancellationPolicyText({
            windowHours: config.cancellation_window_hours,
            lateKeepPercent: config.late_cancellation_keep_percent,
            clubWindowHours: config.club_cancellation_window_hours,
            clubName: config.club_name,
          })}
        </p>
        <Suspense fallback={null}>
          {moving && (
            <MoveReservationDialog
              reservation={moving}
              location={locationOf(moving.location)}
              onClose={() => setMoving(null)}
            />
          )}
          {cancelling && (
            <CancelReservationDialog reservation={cancelling} onClose={() => setCancelling(null)} />
          )}
        </Suspense>
      </Card.Body>
    </Card>
  );
}
