import { useQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import type { ProgressPoint } from '@paddock/contract/laps';
import { api } from '../../../lib/api-client';

const W = 600;
const H = 180;
const PAD = { left: 64, right: 16, top: 16, bottom: 28 };

/** "My progress": the racer's best on a track as it improved, one point per improving day. */
export function ProgressChart({ track, trackName }: { track: number; trackName: string }) {
  const progress = useQuery({
    queryKey: ['laps', 'progress', track],
    queryFn: () => api<ProgressPoint[]>('/laps/progress', { query: { track } }),
  });
  const points = progress.data ?? [];
  if (points.length === 0) return null;
  const times = points.map((p) => p.best_ms);
  const [min, max] = [Math.min(...times), Math.max(...times)];
  const span = max - min;
  const x = (i: number) =>
    PAD.left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (W - PAD.left - PAD.right);
  // Faster is higher: the line climbs as the racer improves.
  const y = (ms: number) =>
    span === 0
      ? PAD.top + (H - PAD.top - PAD.bottom) / 2
      : PAD.top + ((ms - min) / span) * (H - PAD.top - PAD.bottom);
  const first = points[0];
  const last = points[points.length - 1];
  const summary = `Best on ${trackName} went from ${first.hms} on ${first.date} to ${last.hms} on ${last.date}, improving on ${points.length} day${points.length === 1 ? '' : 's'}.`;
  return (
    <figure className="mb-4">
      <figcaption className="h6">My progress on {trackName}</figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="w-100"
        style={{ maxWidth: W }}
        role="img"
        aria-label={summary}
      >
        <text x={4} y={y(min) + 4} fontSize="12">
          {last.hms}
        </text>
        <text x={4} y={y(max) + 4} fontSize="12">
          {span > 0 ? first.hms : ''}
        </text>
        <line
          x1={PAD.left}
          x2={W - PAD.right}
          y1={H - PAD.bottom}
          y2={H - PAD.bottom}
          stroke="#6c757d"
        />
        <polyline
          fill="none"
          stroke="#0d6efd"
          strokeWidth={2}
          points={points.map((p, i) => `${x(i)},${y(p.best_ms)}`).join(' ')}
        />
        {points.map((p, i) => (
          <circle key={p.date} cx={x(i)} cy={y(p.best_ms)} r={4} fill="#0d6efd">
            <title>{`${DateTime.fromISO(p.date).toLocaleString(DateTime.DATE_MED)}: ${p.hms}`}</title>
          </circle>
        ))}
        <text x={PAD.left} y={H - 8} fontSize="12">
          {DateTime.fromISO(first.date).toLocaleString(DateTime.DATE_MED)}
        </text>
        <text x={W - PAD.right} y={H - 8} fontSize="12" textAnchor="end">
          {DateTime.fromISO(last.date).toLocaleString(DateTime.DATE_MED)}
        </text>
      </svg>
    </figure>
  );
}
