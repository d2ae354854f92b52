import Badge from 'react-bootstrap/Badge';
import Modal from 'react-bootstrap/Modal';
import { SIM_NAMES, type Car } from '@paddock/contract/laps';
import { carDetailsUrl } from '@paddock/contract/venue';
import { useVenueConfig } from '../../../lib/venue-config';
import { formatDrivingTime } from './format';

/** The venue's external car page (the `car_details_url` setting), embedded. */
function ExternalCarPage({ car, url }: { car: Car; url: string }) {
  return (
    <>
      <iframe
        src={url}
        title={`${car.name}: car details`}
        className="w-100 border-0"
        style={{ height: '70vh' }}
        sandbox="allow-scripts allow-same-origin allow-popups"
        referrerPolicy="no-referrer"
      />
      <a href={url} target="_blank" rel="noreferrer" className="small">
        Open the car page in a new tab
      </a>
    </>
  );
}

/**
 * 'View Car': the venue's external car-details page when one is set up (customer spec §2), else
 * Paddock's own car page (name, maker, class, groups, time driven here).
 */
export function CarModal({ car, onHide }: { car: Car | null; onHide: () => void }) {
  const config = useVenueConfig();
  const external = car ? carDetailsUrl(config.car_details_url, car) : null;
  return (
    <Modal
      show={car !== null}
      onHide={onHide}
      aria-labelledby="car-modal-title"
      centered
      size={external ? 'xl' : undefined}
    >
      {car && (
        <>
          <Modal.Header closeButton>
            <Modal.Title as="h2" className="h5" id="car-modal-title">
              {car.name}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            {external ? (
              <ExternalCarPage car={car} url={external} />
            ) : (
              <dl className="row mb-0">
                <dt className="col-5">Maker</dt>
                <dd className="col-7">{car.brand || '—'}</dd>
                <dt className="col-5">Class</dt>
                <dd className="col-7">{car.car_class || '—'}</dd>
                <dt className="col-5">Racing Groups</dt>
                <dd className="col-7">
                  {car.groups.length
                    ? car.groups.map((g) => (
                        <Badge key={g.id} bg="secondary" className="me-1">
                          {g.name}
                        </Badge>
                      ))
                    : '—'}
                </dd>
                <dt className="col-5">Driven here</dt>
                <dd className="col-7">{formatDrivingTime(car.total_time_seconds)}</dd>
                <dt className="col-5">Simulator</dt>
                <dd className="col-7">{SIM_NAMES[car.sim]}</dd>
              </dl>
            )}
          </Modal.Body>
        </>
      )}
    </Modal>
  );
}
