// Race-control benchmark for `npm run bench` (issue 12): one event change fanned out to 300
// launcher sockets spread over two API instances sharing one PostgreSQL. Latency per socket is
// from just before the PATCH is sent to the socket's model_updated; repeated to get p50/p99.
import WebSocket from 'ws';
import type { Database } from '../src/db/client';

const SOCKETS = 300;
const ROUNDS = 20;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function racesBenchmark(opts: {
  database: Database;
  appBases: [string, string];
  staffToken: string;
  calendarId: number;
}) {
  const { rows } = await opts.database.pool.query(
    'select id from race_events where calendar_id = $1',
    [opts.calendarId],
  );
  const eventId = rows[0].id as number;
  const headers = { authorization: `Bearer ${opts.staffToken}` };
  const waiting = new Map<WebSocket, (at: number) => void>();
  const sockets = await Promise.all(
    Array.from(
      { length: SOCKETS },
      (_, i) =>
        new Promise<WebSocket>((resolve, reject) => {
          const base = opts.appBases[i % 2].replace('http', 'ws');
          const ws = new WebSocket(`${base}/ws/launcher/events/${eventId}/`, { headers });
          let first = true;
          ws.on('message', () => {
            const at = performance.now();
            if (first) {
              first = false;
              return resolve(ws);
            }
            waiting.get(ws)?.(at);
          });
          ws.on('error', reject);
        }),
    ),
  );

  const latencies: number[] = [];
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const arrivals = sockets.map(
      (ws) => new Promise<number>((resolve) => waiting.set(ws, resolve)),
    );
    const sent = performance.now();
    const res = await fetch(`${opts.appBases[round % 2]}/api/races/events/${eventId}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ drift_mode: round % 2 === 0 }),
    });
    if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
    const times = await Promise.all(arrivals);
    for (const at of times) latencies.push(at - sent);
    rounds.push(Math.max(...times) - sent);
  }
  for (const ws of sockets) ws.close();
  latencies.sort((a, b) => a - b);
  rounds.sort((a, b) => a - b);
  return [
    `launcher fan-out: ${SOCKETS} sockets on 2 instances, ${ROUNDS} changes: per socket p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms; last socket p50 ${pct(rounds, 50).toFixed(1)} ms, max ${rounds[rounds.length - 1].toFixed(1)} ms (PATCH round trip included)`,
  ];
}
