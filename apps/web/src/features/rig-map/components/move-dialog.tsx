import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { RigMap, RigTile } from '@paddock/contract/rig-map';
import { useMoveSession } from '../api/rig-map-api';
import { freeSeatsFor, venueTime, whoOf } from './rig-words';

type Props = { map: RigMap; from: RigTile; onClose: () => void };

/**
 * Move the customer to another free rig for the rest of their time (decision 0127): one choice,
 * one button; the server's one move road does the rest (price difference, mail, audit).
 */
export function MoveDialog({ map, from, onClose }: Props) {
  const free = freeSeatsFor(map, from);
  const [to, setTo] = useState<number | null>(free[0]?.calendar ?? null);
  const move = useMoveSession(onClose);
  const session = from.current!;
  const who = whoOf(session);
  const target = free.find((t) => t.calendar === to);
  return (
    <Modal aria-labelledby="rig-move-title" show onHide={onClose}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          if (to !== null) move.mutate({ calendar: from.calendar, to });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title id="rig-move-title" as="h2" className="h5">
            Move {who} from {from.calendar_name}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            Their remaining time, until {venueTime(session.ends, map.timezone)}, moves to the seat
            you choose. A dearer seat charges the difference to their card; a cheaper one gives it
            back.
          </p>
          {free.length === 0 ? (
            <p className="text-danger mb-0">No seat is free until then.</p>
          ) : (
            <fieldset>
              <legend className="h6">Free seats</legend>
              {free.map((tile) => (
                <Form.Check
                  key={tile.calendar}
                  type="radio"
                  id={`rig-move-to-${tile.calendar}`}
                  name="rig-move-to"
                  checked={to === tile.calendar}
                  onChange={() => setTo(tile.calendar)}
                  label={`${tile.calendar_name}${tile.rig_connected ? '' : ' (rig offline)'}`}
                />
              ))}
            </fieldset>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!target || move.isPending}>
            {target ? `Move to ${target.calendar_name}` : 'Move'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
