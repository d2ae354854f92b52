import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import Form from 'react-bootstrap/Form';
import type { ProgressPoint } from '@paddock/contract/laps';
import { api } from '../../../lib/api-client';

// Drawn at about a phone's width, so 12-unit text stays 12 px there (decision 0098).
const W = 360;
const H = 200;
const PAD = { left: 64, right: 12, top: 12, bottom: 36 };

const day = (date: string) => DateTime.fromISO(date).toFormat('LLL d');

/** The car with the most sessions: the one whose progress says the most. */
function busiest(byCar: Map<number, ProgressPoint[]>): number {
  return [...byCar].reduce((a, b) => (b[1].length > a[1].length ? b : a))[0];
}

/**
 * "My progress": the racer's best lap of each session on a track, one car at a time (a session
 * is a day's laps in one car). A new best is a filled dot.
 */
export function ProgressChart({ track, trackName }: { track: number; trackName: string }) {
  const progress = useQuery({
    queryKey: ['laps', 'progress', track],
    queryFn: () => api<ProgressPoint[]>('/laps/progress', { query: { track } }),
  });
  const [chosen, setChosen] = useState<number | null>(null);
  const byCar = new Map<number, ProgressPoint[]>();
  for (const point of progress.data ?? [])
    byCar.set(point.car, [...(byCar.get(point.car) ?? []), point]);
  if (byCar.size === 0) return null;
  const car = chosen !== null && byCar.has(chosen) ? chosen : busiest(byCar);
  const points = byCar.get(car)!;
  const first = points[0];
  const last = points[points.length - 1];
  const best = points.reduce((a, b) => (b.best_ms < a.best_ms ? b : a));
  return (
    <figure className="mb-4" style={{ maxWidth: 480 }}>
      <figcaption className="h6">My progress on {trackName}</figcaption>
      {byCar.size > 1 && (
        <Form.Group controlId="progress-car" className="mb-2">
          <Form.Label className="small mb-1">Car</Form.Label>
          <Form.Select value={car} onChange={(e) => setChosen(Number(e.target.value))}>
            {[...byCar].map(([id, list]) => (
              <option key={id} value={id}>
                {list[0].car_name} ({list.length} session{list.length === 1 ? '' : 's'})
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      {points.length === 1 ? (
        <p className="mb-0">
          One session in the {first.car_name} so far: best {first.hms} on {day(first.date)}. Your
          progress shows here after your next session.
        </p>
      ) : (
        <Chart
          points={points}
          label={`Best on ${trackName} in the ${first.car_name} went from ${first.hms} on ${day(first.date)} to ${last.hms} on ${day(last.date)} over ${points.length} sessions; fastest ${best.hms} on ${day(best.date)}.`}
        />
      )}
    </figure>
  );
}

/** Session bests left to right, faster higher, the lap-time axis at its ends and middle. */
function Chart({ points, label }: { points: ProgressPoint[]; label: string }) {
  const times = points.map((p) => p.best_ms);
  const [min, max] = [Math.min(...times), Math.max(...times)];
  const span = Math.max(max - min, 1);
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (i / (points.length - 1)) * (W - PAD.left - PAD.right);
  const y = (ms: number) => PAD.top + ((ms - min) / span) * plotH;
  const fastest = points.find((p) => p.best_ms === min)!;
  const slowest = points.find((p) => p.best_ms === max)!;
  const ticks = min === max ? [fastest] : [fastest, slowest];
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="w-100" role="img" aria-label={label}>
      {ticks.map((p) => (
        <g key={p.best_ms}>
          <line
            x1={PAD.left}
            x2={W - PAD.right}
            y1={y(p.best_ms)}
            y2={y(p.best_ms)}
            stroke="#dee2e6"
          />
          <text x={PAD.left - 6} y={y(p.best_ms) + 4} fontSize="12" textAnchor="end">
            {p.hms}
          </text>
        </g>
      ))}
      <line
        x1={PAD.left}
        x2={W - PAD.right}
        y1={H - PAD.bottom + 8}
        y2={H - PAD.bottom + 8}
        stroke="#6c757d"
      />
      <polyline
        fill="none"
        stroke="#0d6efd"
        strokeWidth={2}
        points={points.map((p, i) => `${x(i)},${y(p.best_ms)}`).join(' ')}
      />
      {points.map((p, i) => (
        <circle
          key={p.date}
          cx={x(i)}
          cy={y(p.best_ms)}
          r={5}
          fill={p.personal_best ? '#0d6efd' : '#ffffff'}
          stroke="#0d6efd"
          strokeWidth={2}
        >
          <title>{`${day(p.date)}: ${p.hms} (${p.laps} lap${p.laps === 1 ? '' : 's'})${p.personal_best ? ', a new best' : ''}`}</title>
        </circle>
      ))}
      <text x={PAD.left} y={H - 8} fontSize="12">
        {day(points[0].date)}
      </text>
      <text x={W - PAD.right} y={H - 8} fontSize="12" textAnchor="end">
        {day(points[points.length - 1].date)}
      </text>
      <text x={(PAD.left + W - PAD.right) / 2} y={H - 8} fontSize="12" textAnchor="middle">
        {points.length} sessions
      </text>
    </svg>
  );
}
