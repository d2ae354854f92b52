import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { api } from '../../../lib/api-client';
import { showError } from '../../../lib/alerts';

type WaitingRig = { code: string; hostname: string; created: string };
type SeatGroup = { id: number; name: string; seats: Array<{ id: number; name: string }> };

/**
 * Pairs a PC with a seat (issue 43, decision 0121): the rig agent shows a code on its screen;
 * staff type it here (or pick the waiting PC) and choose the seat. Pairing a seat again replaces
 * its PC: the earlier key stops working.
 */
export function PairRigForm({
  seatGroups,
  onPaired,
}: {
  seatGroups: SeatGroup[];
  onPaired: () => void;
}) {
  const waiting = useQuery({
    queryKey: ['rig_pairings'],
    queryFn: () => api<WaitingRig[]>('/rig_pairings'),
    refetchInterval: 3000,
  });
  const [seat, setSeat] = useState('');
  const [code, setCode] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const pair = useMutation({
    mutationFn: () =>
      api<{ calendar_name: string; label: string }>('/rig_keys/pair', {
        method: 'POST',
        body: { calendar: Number(seat), code },
      }),
    onSuccess: (key) => {
      setDone(`${key.label} is now the rig of ${key.calendar_name}.`);
      setCode('');
      onPaired();
    },
    onError: (error) => showError(error),
  });
  return (
    <div className="mb-4">
      <h3 className="h5">Pair a Rig</h3>
      <p className="text-body-secondary small mb-2">
        Start paddock-rig.exe on the PC: it shows a code. Type it here and choose the seat.
      </p>
      {done && (
        <Alert variant="success" dismissible onClose={() => setDone(null)}>
          {done}
        </Alert>
      )}
      <Form
        className="d-flex flex-wrap gap-2 align-items-end mb-2"
        onSubmit={(e) => {
          e.preventDefault();
          pair.mutate();
        }}
      >
        <Form.Group controlId="pair-rig-code">
          <Form.Label>Code on the rig</Form.Label>
          <Form.Control
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="ABC-234"
            autoComplete="off"
            autoCapitalize="characters"
            maxLength={20}
          />
        </Form.Group>
        <Form.Group controlId="pair-rig-seat">
          <Form.Label>Seat</Form.Label>
          <Form.Select required value={seat} onChange={(e) => setSeat(e.target.value)}>
            <option value="">Choose a seat</option>
            {seatGroups.map((l) => (
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
        <Button type="submit" disabled={!seat || !code || pair.isPending}>
          Pair
        </Button>
      </Form>
      {waiting.data && waiting.data.length > 0 && (
        <div>
          <span className="small">Rigs waiting: </span>
          {waiting.data.map((w) => (
            <Button
              key={w.code}
              size="sm"
              variant="outline-secondary"
              className="me-2 mb-1"
              onClick={() => setCode(w.code)}
            >
              {w.hostname || 'A PC'} · {w.code}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
