import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import type { RigTile } from '@paddock/contract/rig-map';
import type { HostSignal, SignalResult } from '@paddock/contract/races';
import { showAlert, showError } from '../../../lib/alerts';
import { sendSignal } from '../../../lib/api/race-events-api';
import { pathTo } from '../../../lib/routes';

export type TileActionProps = {
  tile: RigTile;
  /** The launcher's permission: Start and End are its signals. */
  canSignal: boolean;
  /** The admin user page's permissions. */
  canOpenCustomer: boolean;
  /** Where the planner opens to book an extension. */
  plannerLink: string;
  onMove: (tile: RigTile) => void;
};

/**
 * A tile's one-tap actions. Start and End are the launcher's signal route (decision 0115): its
 * answer names the seats it reached, and a seat without its rig is never said to have started.
 */
export function TileActions({
  tile,
  canSignal,
  canOpenCustomer,
  plannerLink,
  onMove,
}: TileActionProps) {
  const [answer, setAnswer] = useState<SignalResult | null>(null);
  const signal = useMutation({
    mutationFn: (which: HostSignal) =>
      sendSignal(tile.event!, {
        signal: which,
        // A seat of a party starts alone: the party's other seats are left out.
        ...(which === 'SESSION_START' && tile.event_seats.length
          ? { excluded_calendars: tile.event_seats }
          : {}),
      }),
    onSuccess: (result) => {
      setAnswer(result);
      showAlert(result.detail, result.not_connected.length ? 'warning' : 'success', 5_000);
    },
    onError: (error) => showError(error),
  });
  const name = tile.calendar_name;
  const session = tile.current;
  const inService = tile.state !== 'out_of_service';
  const offline = !tile.rig_connected;
  const signals = canSignal && tile.event !== null && inService;
  // Exit goes to every seat of an event: a party's seat ends with its party, on the launcher.
  const solo = tile.party_name === null;
  return (
    <div className="mt-auto">
      <div className="d-flex flex-wrap gap-2">
        {signals && (
          <Button
            variant="success"
            disabled={signal.isPending || offline}
            title={offline ? 'No rig connected: Start does not reach it.' : undefined}
            aria-label={`Start ${name}`}
            onClick={() => signal.mutate('SESSION_START')}
          >
            Start
          </Button>
        )}
        {signals && solo && (
          <Button
            variant="danger"
            disabled={signal.isPending || offline}
            title={offline ? 'No rig connected: End does not reach it.' : undefined}
            aria-label={`End ${name}`}
            onClick={() => signal.mutate('SESSION_EXIT')}
          >
            End
          </Button>
        )}
        {session && (
          <Button
            variant="outline-primary"
            aria-label={`Move the customer on ${name}`}
            onClick={() => onMove(tile)}
          >
            Move
          </Button>
        )}
        {session && (
          // Extending from the desk books the next half-hour in the planner (decision 0127).
          <Link
            className="btn btn-outline-secondary"
            to={plannerLink}
            aria-label={`Extend on ${name} in the planner`}
          >
            Extend
          </Link>
        )}
        {session?.customer && canOpenCustomer && (
          <Link
            className="btn btn-outline-secondary"
            to={pathTo('adminUser', { userId: session.customer })}
            aria-label={`Customer on ${name}`}
          >
            Customer
          </Link>
        )}
      </div>
      {offline && inService && signals && (
        <p className="small text-danger-emphasis mt-1 mb-0">
          No rig connected: Start and End do not reach it.
        </p>
      )}
      {signals && !solo && (
        <p className="small text-body-secondary mt-1 mb-0">
          End the party on the <Link to={pathTo('adminLauncher')}>Launcher</Link>.
        </p>
      )}
      {answer && (
        <p
          className={`small mt-1 mb-0 ${answer.not_connected.length ? 'text-warning-emphasis' : 'text-success-emphasis'}`}
        >
          {answer.detail}
        </p>
      )}
    </div>
  );
}
