import Badge from 'react-bootstrap/Badge';
import Modal from 'react-bootstrap/Modal';
import type { Car } from '@paddock/contract/laps';
import { formatDrivingTime } from './format';

/** 'View Car': the car's page (name, maker, class, groups, time driven here). */
export function CarModal({ car, onHide }: { car: Car | null; onHide: () => void }) {
  return (
    <Modal show={car !== null} onHide={onHide} aria-labelledby="car-modal-title" centered>
      {car && (
        <>
          <Modal.Header closeButton>
            <Modal.Title as="h2" className="h5" id="car-modal-title">
              {car.name}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
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
              <dd className="col-7">
                {car.sim === 'acc' ? 'Assetto Corsa Competizione' : 'Assetto Corsa'}
              </dd>
            </dl>
          </Modal.Body>
        </>
      )}
    </Modal>
  );
}
