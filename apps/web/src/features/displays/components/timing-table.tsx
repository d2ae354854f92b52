import type { TimingTower } from '@paddock/contract/live-timing';
import { Timed } from './timed';
import { gapText, lapText, sectorText, STATUS_WORDS } from './timing-words';

/** The tower for a room: one row per car, big type, every column the sim gives. */
export function TimingTable({ tower }: { tower: TimingTower }) {
  const race = tower.session.type === 'RACE';
  const sectors = Math.max(0, ...tower.rows.map((r) => r.sectors.length));
  return (
    <table className="table table-dark table-striped paddock-timing-table mb-0">
      <caption className="visually-hidden">Live timing</caption>
      <thead>
        <tr>
          <th scope="col">Pos</th>
          <th scope="col">No.</th>
          <th scope="col">Driver</th>
          <th scope="col">Car</th>
          <th scope="col" className="text-end">
            Laps
          </th>
          <th scope="col" className="text-end">
            {race ? 'Gap' : 'Gap to best'}
          </th>
          <th scope="col" className="text-end">
            Interval
          </th>
          <th scope="col" className="text-end">
            Last lap
          </th>
          <th scope="col" className="text-end">
            Best lap
          </th>
          {Array.from({ length: sectors }, (_, i) => (
            <th scope="col" className="text-end" key={i}>
              S{i + 1}
            </th>
          ))}
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {tower.rows.map((row) => (
          <tr key={row.number}>
            <td className="fw-bold">{row.position}</td>
            <td>{row.number}</td>
            <td>
              {row.driver}
              {row.team && <span className="paddock-timing-team"> {row.team}</span>}
            </td>
            <td>{row.car}</td>
            <td className="text-end">{row.laps}</td>
            <td className="text-end">{gapText(row.gap)}</td>
            <td className="text-end">{gapText(row.interval)}</td>
            <td className="text-end">
              <Timed text={lapText(row.last_lap_ms)} mark={row.last_lap_mark} />
              {row.last_lap_invalid && <span className="paddock-timing-invalid"> (invalid)</span>}
            </td>
            <td className="text-end">
              <Timed text={lapText(row.best_lap_ms)} mark={row.best_lap_mark} />
            </td>
            {Array.from({ length: sectors }, (_, i) => (
              <td className="text-end" key={i}>
                {row.sectors[i] && (
                  <Timed text={sectorText(row.sectors[i].ms)} mark={row.sectors[i].mark} />
                )}
              </td>
            ))}
            <td>{STATUS_WORDS[row.status]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
