import Badge from 'react-bootstrap/Badge';
import type { SocketStatus } from './use-event-socket';

const LOOK: Record<SocketStatus, { bg: string; text?: 'dark'; label: string }> = {
  connecting: { bg: 'light', text: 'dark', label: 'Connecting…' },
  open: { bg: 'success', label: 'Live' },
  disconnected: { bg: 'danger', label: 'Disconnected, reconnecting…' },
  closed: { bg: 'secondary', label: 'Not live' },
};

/** Whether an event's socket is live; a dropped one says so plainly until it is back. */
export function LiveStatus({ status }: { status: SocketStatus }) {
  const look = LOOK[status];
  return (
    <Badge bg={look.bg} text={look.text} role="status" data-live={status}>
      {look.label}
    </Badge>
  );
}
