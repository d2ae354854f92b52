import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ListTable } from '../../../components/list-with-edit-dialog';
import { api } from '../../../lib/api-client';
import { showError } from '../../../lib/alerts';
import { locationsQuery } from '../../../lib/locations-query';
import { useVenueTime } from '../../../lib/venue-time';
import { usePairRig, WaitingRigs } from './pair-rig-form';

type RigKey = {
  id: number;
  calendar: number;
  calendar_name: string;
  label: string;
  created: string;
  revoked: boolean;
  key?: string;
};
type Seat = { id: number; name: string; location: number };

/** Keys that let a seat's rig agent send laps; shown once when made. */
export function RigKeysPanel() {
  const client = useQueryClient();
  const keys = useQuery({ queryKey: ['rig_keys'], queryFn: () => api<RigKey[]>('/rig_keys') });
  const seats = useQuery({
    queryKey: ['calendars', 'all-seats'],
    queryFn: () => api<{ results: Seat[] }>('/calendars', { query: { page_size: 100 } }),
  });
  const time = useVenueTime();
  const locations = useQuery(locationsQuery);
  /** Seats under their location's name: a chain has a "Cockpit 1" in every venue. */
  const byLocation = (locations.data ?? [])
    .map((l) => ({ ...l, seats: seats.data?.results.filter((s) => s.location === l.id) ?? [] }))
    .filter((l) => l.seats.length > 0);
  const whereIs = new Map(byLocation.flatMap((l) => l.seats.map((s) => [s.id, l.name])));
  /** "Cockpit 1, Brighton" when the venue has several locations. */
  const seatName = (k: RigKey) =>
    byLocation.length > 1 && whereIs.has(k.calendar)
      ? `${k.calendar_name}, ${whereIs.get(k.calendar)}`
      : k.calendar_name;
  const [seat, setSeat] = useState('');
  const [made, setMade] = useState<RigKey | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['rig_keys'] });
  const [code, setCode] = useState('');
  const { pair, paired, clearPaired } = usePairRig(() => {
    setCode('');
    void refresh();
  });
  const create = useMutation({
    mutationFn: () =>
      api<RigKey>('/rig_keys', { method: 'POST', body: { calendar: Number(seat) } }),
    onSuccess: (key) => {
      setMade(key);
      void refresh();
    },
    onError: (error) => showError(error),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => api(`/rig_keys/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
    onError: (error) => showError(error),
  });
  return (
    <section aria-labelledby="rig-keys-title">
      <h2 id="rig-keys-title" className="h4">
        Rig Keys
      </h2>
      <p className="text-body-secondary small mb-2">
        To pair a PC: start paddock-rig.exe on it, type the code it shows and choose its seat.
        Pairing a seat again replaces its PC.
      </p>
      {paired && (
        <Alert variant="success" dismissible onClose={clearPaired}>
          {paired}
        </Alert>
      )}
      {made?.key && (
        <Alert variant="warning" dismissible onClose={() => setMade(null)}>
          Key for {seatName(made)} (shown once; for a rig started with --key, copy it now):{' '}
          <code className="user-select-all text-body">{made.key}</code>
        </Alert>
      )}
      <Form
        className="d-flex flex-wrap gap-2 align-items-end mb-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (code.trim()) pair.mutate({ calendar: Number(seat), code });
          else create.mutate();
        }}
      >
        <Form.Group controlId="pair-rig-code">
          <Form.Label>Code on the PC</Form.Label>
          <Form.Control
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="ABC-234"
            autoComplete="off"
            autoCapitalize="characters"
            maxLength={20}
          />
        </Form.Group>
        <Form.Group controlId="rig-key-seat">
          <Form.Label>Seat</Form.Label>
          <Form.Select required value={seat} onChange={(e) => setSeat(e.target.value)}>
            <option value="">Choose a seat</option>
            {byLocation.map((l) => (
              <optgroup key={l.id} label={l.name}>
                {l.seats.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </Form.Select>
        </Form.Group>
        <Button type="submit" disabled={!seat || !code.trim() || pair.isPending}>
          Pair
        </Button>
        <Button
          variant="outline-secondary"
          disabled={!seat || create.isPending}
          onClick={() => create.mutate()}
        >
          New Key
        </Button>
      </Form>
      <WaitingRigs onPick={setCode} />
      <ListTable columns={['Seat', 'Made', 'State']}>
        {keys.data?.map((k) => (
          <tr key={k.id}>
            <td>{seatName(k)}</td>
            <td>{time.dateTime(k.created)}</td>
            <td>{k.revoked ? 'Revoked' : 'Active'}</td>
            <td>
              {!k.revoked && (
                <Button size="sm" variant="outline-danger" onClick={() => revoke.mutate(k.id)}>
                  Revoke<span className="visually-hidden"> the key of {seatName(k)}</span>
                </Button>
              )}
            </td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
