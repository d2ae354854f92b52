import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import type { Track } from '@paddock/contract/laps';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { tracksQuery } from '../../../lib/api/catalog-queries';
import { SearchBox } from '../../../components/search-box';

type Props = {
  show: boolean;
  selected: number | null;
  onChoose: (track: Track | null) => void;
  onHide: () => void;
};

/** Choose a track for the laps filter; the most driven come first. */
export function TrackModal({ show, selected, onChoose, onHide }: Props) {
  const [search, setSearch] = useState('');
  const keywords = useDebouncedValue(search.trim(), 300);
  const tracks = useQuery({ ...tracksQuery(keywords, 1, 50), enabled: show });
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="track-modal-title" centered scrollable>
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="h5" id="track-modal-title">
          Choose a Track
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div className="mb-3">
          <SearchBox id="track-modal-search" value={search} onChange={setSearch} label="Track" />
        </div>
        <ListGroup>
          <ListGroup.Item action active={selected === null} onClick={() => onChoose(null)}>
            All tracks
          </ListGroup.Item>
          {tracks.data?.results.map((t) => (
            <ListGroup.Item
              key={t.id}
              action
              active={t.id === selected}
              onClick={() => onChoose(t)}
            >
              {t.name}
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
