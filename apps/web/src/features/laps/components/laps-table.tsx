import { DateTime } from 'luxon';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { Lap } from '@paddock/contract/laps';

type Props = { laps: Lap[]; ranked: boolean; onTrack: (lap: Lap) => void; busy: boolean };

/** Spec §2 /laps columns: Rank (ranked view only), Track, Time, Car, Valid, Tire, Fuel, Sim, Recorded. */
export function LapsTable({ laps, ranked, onTrack, busy }: Props) {
  return (
    <Table responsive hover className="align-middle paddock-stack-table" aria-busy={busy}>
      <thead>
        <tr>
          {ranked && <th scope="col">Rank</th>}
          <th scope="col">Track</th>
          <th scope="col">Time</th>
          <th scope="col">Car</th>
          <th scope="col">Valid</th>
          <th scope="col">Tire</th>
          <th scope="col">Fuel</th>
          <th scope="col">Sim</th>
          <th scope="col">Recorded</th>
        </tr>
      </thead>
      <tbody>
        {laps.map((lap) => {
          const top = ranked && lap.rank !== null && lap.rank <= 3;
          return (
            <tr key={lap.id} className={top ? 'fw-bold' : undefined}>
              {ranked && <td data-label="Rank">{lap.rank}</td>}
              <td data-label="Track">
                <Button variant="link" className="p-0 text-start" onClick={() => onTrack(lap)}>
                  {lap.track_name}
                </Button>
              </td>
              <td data-label="Time" className="font-monospace">
                {lap.hms}
              </td>
              <td data-label="Car">{lap.car_name}</td>
              <td data-label="Valid">
                {lap.approved ? (
                  <span className="text-success" role="img" aria-label="Valid">
                    ✓
                  </span>
                ) : (
                  <span
                    className="text-danger"
                    role="img"
                    aria-label={`Not valid${lap.invalid_reason ? `: ${lap.invalid_reason}` : ''}`}
                    title={lap.invalid_reason}
                  >
                    ✗
                  </span>
                )}
              </td>
              <td data-label="Tire">{lap.tire || '—'}</td>
              <td data-label="Fuel">{lap.fuel !== null ? `${lap.fuel} L` : '—'}</td>
              <td data-label="Sim">{lap.sim_name}</td>
              <td data-label="Recorded" className="text-nowrap">
                {DateTime.fromISO(lap.created).toLocaleString(DateTime.DATETIME_SHORT)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
