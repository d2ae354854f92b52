import Badge from 'react-bootstrap/Badge';
import type { LoadState } from '@paddock/contract/races';

const LOOK: Record<LoadState, { bg: string; text?: 'dark'; label: string }> = {
  none: { bg: 'secondary', label: 'None' },
  loading: { bg: 'warning', text: 'dark', label: 'Loading' },
  running: { bg: 'success', label: 'Running' },
};

/** A seat's load state in its event (spec §4: exited → none, initialized → loading, launched → running). */
export function LoadStateBadge({ state }: { state: LoadState }) {
  const look = LOOK[state];
  return (
    <Badge bg={look.bg} text={look.text} data-state={state}>
      <span className="visually-hidden">State: </span>
      {look.label}
    </Badge>
  );
}
