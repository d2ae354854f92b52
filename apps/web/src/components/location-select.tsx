import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import Form from 'react-bootstrap/Form';
import { locationsQuery } from '../lib/locations-query';

/**
 * A staff screen's location, kept in the address (`?location=`): shown only when the venue has
 * more than one location.
 */
export function LocationSelect({ id, value }: { id: string; value: number | null }) {
  const [, setParams] = useSearchParams();
  const locations = useQuery(locationsQuery);
  if ((locations.data?.length ?? 0) <= 1) return null;
  return (
    <Form.Group controlId={id} style={{ minWidth: '14rem' }}>
      <Form.Label>Location</Form.Label>
      <Form.Select
        value={value ?? ''}
        onChange={(e) => setParams({ location: e.target.value }, { replace: true })}
      >
        {locations.data?.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}
