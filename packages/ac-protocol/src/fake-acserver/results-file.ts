// The parts of an acServer results JSON the fake needs to replay a session: its type, the race
// length and the laps in the order they were completed. Tolerant of what real files hold
// (missing fields, unsorted laps); never throws.

export interface ResultsLap {
  carId: number;
  driverName: string;
  driverGuid: string;
  lapTimeMs: number;
  cuts: number;
  /** Milliseconds on the server's clock when the lap was completed. */
  timestamp: number;
}

export interface ResultsFile {
  type: string;
  raceLaps: number;
  laps: ResultsLap[];
}

export type ParseResultsResult = { ok: true; file: ResultsFile } | { ok: false; problem: string };

const num = (v: unknown, fallback = 0) =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function parseResultsFile(json: string): ParseResultsResult {
  let data: unknown;
  try {
    data = JSON.parse(json.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { ok: false, problem: `results file is not JSON: ${(e as Error).message}` };
  }
  if (
    typeof data !== 'object' ||
    data === null ||
    !Array.isArray((data as { Laps?: unknown }).Laps)
  ) {
    return { ok: false, problem: 'results file has no Laps list' };
  }
  const d = data as { Type?: unknown; RaceLaps?: unknown; Laps: unknown[] };
  const laps: ResultsLap[] = [];
  for (const raw of d.Laps) {
    if (typeof raw !== 'object' || raw === null) continue;
    const l = raw as Record<string, unknown>;
    if (typeof l.CarId !== 'number' || typeof l.LapTime !== 'number') continue;
    laps.push({
      carId: l.CarId,
      driverName: str(l.DriverName),
      driverGuid: str(l.DriverGuid),
      lapTimeMs: l.LapTime,
      cuts: num(l.Cuts),
      timestamp: num(l.Timestamp),
    });
  }
  // Stable sort: laps with equal timestamps keep the file's order.
  laps.sort((a, b) => a.timestamp - b.timestamp);
  return { ok: true, file: { type: str(d.Type) || 'RACE', raceLaps: num(d.RaceLaps), laps } };
}
