import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import type { Lap } from '@paddock/contract/laps';
import { Flag, Social } from './racer';

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
          <Col as="li" key={lap.id} xs={12} md={4}>
            <Card className={`h-100 podium podium-${lap.rank}`}>
              <Card.Body>
                <div className="d-flex align-items-center gap-2 mb-2">
                  <span className="badge text-bg-dark fs-6">{PLACES[(lap.rank ?? 1) - 1]}</span>
                  <Flag url={lap.flag_url} label={lap.display_name} />
                  <strong className="fs-5 text-truncate">{lap.display_name}</strong>
                </div>
                <div className="display-6 fw-bold font-monospace">{lap.hms}</div>
                <div>{lap.car_name}</div>
                <div className="small text-body-secondary">{setup(lap)}</div>
                <Social handle={lap.display_social} />
              </Card.Body>
            </Card>
          </Col>
        ))}
      </Row>
      {rest.length > 0 && (
        <Table responsive striped className="align-middle">
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
                <td>{lap.rank}</td>
                <td>{lap.display_name}</td>
                <td>
                  <Social handle={lap.display_social} />
                </td>
                <td>
                  <Flag url={lap.flag_url} label={lap.display_name} />
                </td>
                <td className="font-monospace">{lap.hms}</td>
                <td>{lap.car_name}</td>
                <td className="small">{setup(lap) || '—'}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
