import Badge from 'react-bootstrap/Badge';

/**
 * Whether a seat's rig agent holds the event's socket now (decision 0115): a signal reaches the
 * seat only then, so the desk sees it before pressing Start.
 */
export function RigBadge({ connected }: { connected: boolean }) {
  return connected ? (
    <Badge bg="light" text="dark" className="border border-success">
      Rig connected
    </Badge>
  ) : (
    <Badge bg="warning" text="dark" data-rig="none">
      No rig connected
    </Badge>
  );
}

/** The seats among `entries` whose rig is not connected, by name, or null when all are. */
export function noRigLine(
  entries: readonly { calendar: number; calendar_name: string; rig_connected: boolean }[],
  excluded: readonly number[] = [],
): string | null {
  const missing = entries.filter((e) => !excluded.includes(e.calendar) && !e.rig_connected);
  if (missing.length === 0) return null;
  return `No rig connected: ${missing.map((e) => e.calendar_name).join(', ')}. Start does not reach ${missing.length === 1 ? 'it' : 'them'}.`;
}
