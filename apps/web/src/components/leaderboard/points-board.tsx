import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import type { PointsEntry } from '@paddock/contract/laps';
import { Flag } from './racer';
import { PodiumCard } from './podium-card';

/** POINTS board: podium (name, flag, points, car) and the table (spec §2 Leaderboards). */
export function PointsBoard({ entries }: { entries: PointsEntry[] }) {
  const podium = entries.filter((e) => e.rank <= 3);
  const rest = entries.filter((e) => e.rank > 3);
  return (
    <>
      <Row as="ol" className="list-unstyled g-3 mb-4" aria-label="Podium">
        {podium.map((e) => (
          <PodiumCard
            key={`${e.rank}-${e.name}`}
            rank={e.rank}
            place={`#${e.rank}`}
            name={e.name}
            flagUrl={e.flag_url}
            figure={<div className="display-6 fw-bold">{e.points} pts</div>}
          >
            <div>{e.car}</div>
            {e.members.length > 1 && (
              <div className="small text-body-secondary">{e.members.join(', ')}</div>
            )}
          </PodiumCard>
        ))}
      </Row>
      {rest.length > 0 && (
        <Table responsive striped className="align-middle">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Name</th>
              <th scope="col">Points</th>
              <th scope="col">Flag</th>
              <th scope="col">Car</th>
            </tr>
          </thead>
          <tbody>
            {rest.map((e) => (
              <tr key={`${e.rank}-${e.name}`}>
                <td>{e.rank}</td>
                <td>{e.name}</td>
                <td>{e.points}</td>
                <td>
                  <Flag url={e.flag_url} label={e.name} />
                </td>
                <td>{e.car}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
