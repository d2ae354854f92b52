import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import type { Lap } from '@paddock/contract/laps';
import { Flag, Social } from './racer';
import { PodiumCard } from './podium-card';

const setup = (lap: Lap) =>
  [
    lap.fuel !== null ? `${lap.fuel} L fuel` : null,
    lap.tire || null,
    lap.ballast ? `${lap.ballast} kg ballast` : null,
  ]
    .filter(Boolean)
    .join(' · ');

const PLACES = ['1st', '2nd', '3rd'];

/** TIME board: the top 3 as podium cards, the rest in a table (spec §2 Leaderboards). */
export function TimeBoard({ entries }: { entries: Lap[] }) {
  const podium = entries.slice(0, 3);
  const rest = entries.slice(3);
  return (
    <>
      <Row as="ol" className="list-unstyled g-3 mb-4" aria-label="Podium">
        {podium.map((lap) => (
          <PodiumCard
            key={lap.id}
            rank={lap.rank ?? 1}
            place={PLACES[(lap.rank ?? 1) - 1]}
            name={lap.display_name}
            flagUrl={lap.flag_url}
            figure={<div className="display-6 fw-bold font-monospace">{lap.hms}</div>}
          >
            <div>{lap.car_name}</div>
            <div className="small text-body-secondary">{setup(lap)}</div>
            <Social handle={lap.display_social} />
          </PodiumCard>
        ))}
      </Row>
      {rest.length > 0 && (
        <Table responsive striped className="align-middle paddock-stack-table">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Racer</th>
              <th scope="col">Social</th>
              <th scope="col">Flag</th>
              <th scope="col">Time</th>
              <th scope="col">Car</th>
              <th scope="col">Fuel / Tire / Ballast</th>
            </tr>
          </thead>
          <tbody>
            {rest.map((lap) => (
              <tr key={lap.id}>
                <td data-label="Rank">{lap.rank}</td>
                <td data-label="Racer">{lap.display_name}</td>
                <td data-label="Social">
                  <Social handle={lap.display_social} />
                </td>
                <td data-label="Flag">
                  <Flag url={lap.flag_url} label={lap.display_name} />
                </td>
                <td data-label="Time" className="font-monospace">
                  {lap.hms}
                </td>
                <td data-label="Car">{lap.car_name}</td>
                <td data-label="Fuel / Tire / Ballast" className="small">
                  {setup(lap) || '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
