import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { api } from '../../../lib/api-client';
import { showError } from '../../../lib/alerts';

type WaitingRig = { code: string; hostname: string; created: string };

/**
 * Pairing a PC with a seat (issue 43, decision 0121): the rig agent shows a code on its screen;
 * staff type it (or pick the waiting PC) and choose the seat. Pairing a seat again replaces its
 * PC: the earlier key stops working.
 */
export function usePairRig(onPaired: () => void) {
  const [paired, setPaired] = useState<string | null>(null);
  const pair = useMutation({
    mutationFn: (body: { calendar: number; code: string }) =>
      api<{ calendar_name: string; label: string }>('/rig_keys/pair', { method: 'POST', body }),
    onSuccess: (key) => {
      setPaired(`${key.label} is now the rig of ${key.calendar_name}.`);
      onPaired();
    },
    onError: (error) => showError(error),
  });
  return { pair, paired, clearPaired: () => setPaired(null) };
}

/** PCs showing a code now: a button each puts its code in the form. */
export function WaitingRigs({ onPick }: { onPick: (code: string) => void }) {
  const waiting = useQuery({
    queryKey: ['rig_pairings'],
    queryFn: () => api<WaitingRig[]>('/rig_pairings'),
    refetchInterval: 3000,
  });
  if (!waiting.data?.length) return null;
  return (
    <div className="mb-3" aria-live="polite">
      <span className="small me-2">PCs waiting to be paired:</span>
      {waiting.data.map((w) => (
        <Button
          key={w.code}
          size="sm"
          variant="outline-secondary"
          className="me-2 mb-1"
          onClick={() => onPick(w.code)}
        >
          {w.hostname || 'A PC'} · {w.code}
        </Button>
      ))}
    </div>
  );
}
