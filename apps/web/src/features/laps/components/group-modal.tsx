import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import { groupsQuery } from '../../../lib/api/catalog-queries';

type Props = {
  show: boolean;
  selected: number | null;
  onChoose: (group: number | null) => void;
  onHide: () => void;
};

/** Choose a racing group for the laps filter. */
export function GroupModal({ show, selected, onChoose, onHide }: Props) {
  const groups = useQuery(groupsQuery());
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="group-modal-title" centered>
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="h5" id="group-modal-title">
          Choose a Group
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <ListGroup>
          <ListGroup.Item action active={selected === null} onClick={() => onChoose(null)}>
            All groups
          </ListGroup.Item>
          {groups.data?.map((g) => (
            <ListGroup.Item
              key={g.id}
              action
              active={g.id === selected}
              onClick={() => onChoose(g.id)}
            >
              {g.name}
            </ListGroup.Item>
          ))}
        </ListGroup>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
