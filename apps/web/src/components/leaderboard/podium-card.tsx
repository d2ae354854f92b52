import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import { Flag } from './racer';

type Props = {
  rank: number;
  /** The place as shown: "1st" on TIME boards, "#1" on POINTS boards. */
  place: string;
  name: string;
  flagUrl: string;
  /** The big figure: a lap time or the points. */
  figure: ReactNode;
  children: ReactNode;
};

/** One of the top three of a board, as a card (spec §2: podium is the top 3 ranks). */
export function PodiumCard({ rank, place, name, flagUrl, figure, children }: Props) {
  return (
    <Col as="li" xs={12} md={4}>
      <Card className={`h-100 podium podium-${rank}`}>
        <Card.Body>
          <div className="d-flex align-items-center gap-2 mb-2">
            <span className="badge text-bg-dark fs-6">{place}</span>
            <Flag url={flagUrl} label={name} />
            <strong className="fs-5 text-truncate">{name}</strong>
          </div>
          {figure}
          {children}
        </Card.Body>
      </Card>
    </Col>
  );
}
