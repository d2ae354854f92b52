import {
  intIn,
  MAX_LAP_COUNT,
  MAX_SECTOR_MS,
  MAX_SESSION_MS,
  resultsPrint,
  sessionKeyOf,
  text,
  timeOrNull,
  type ParsedLap,
  type ParsedResult,
  type ParsedSession,
} from './results-common';

/** A RaceRoom dedicated server's results: `Server`, `Track`, and `Sessions` of `Players`. */
export const isRaceroom = (d: Record<string, unknown>) => 'Track' in d && Array.isArray(d.Sessions);

const kindOf = (type: string): ParsedSession['kind'] =>
  /^race\d*$/i.test(type) ? 'RACE' : /^qualify\d*$/i.test(type) ? 'QUALIFY' : 'PRACTICE';

/** RaceRoom's user id: the number racers give as their sim id. */
const userIdOf = (v: unknown) => {
  const id = intIn(v, 1, Number.MAX_SAFE_INTEGER);
  return id === null ? '' : String(id);
};

/** `SectorTimes` are times at each split from the lap's start: each sector is the difference. */
function sectorsOf(v: unknown): number[] {
  const splits = Array.isArray(v) ? v.map((x) => intIn(x, 1, MAX_SECTOR_MS)) : [];
  if (splits.length === 0 || splits.length > 10 || splits.some((x) => x === null)) return [];
  const s = splits as number[];
  const sectors = s.map((x, i) => x - (i === 0 ? 0 : s[i - 1]));
  return sectors.every((x) => x > 0) ? sectors : [];
}

/**
 * One results file holds every session of the server's event (practice, qualifying, one or
 * more races): each is a session of its own. A lap time of -1000 or 0 is no time; `Valid:
 * false` is a lap the server did not count (a cut): stored, kept off the boards.
 */
export function parseRaceroom(d: Record<string, unknown>): ParsedSession[] {
  const trackKey = text(d.Track);
  const layout = text(d.TrackLayout);
  const serverName = text(d.Server);
  const start = text(d.StartTime) || text(d.Time);
  return (d.Sessions as unknown[]).flatMap((raw, index): ParsedSession[] => {
    if (!raw || typeof raw !== 'object') return [];
    const s = raw as Record<string, unknown>;
    const type = text(s.Type);
    const players = (Array.isArray(s.Players) ? s.Players : []) as unknown[];
    const laps: ParsedLap[] = [];
    const results: ParsedResult[] = [];
    players.forEach((p) => {
      if (!p || typeof p !== 'object') return;
      const player = p as Record<string, unknown>;
      const guid = userIdOf(player.UserId);
      const name = text(player.FullName) || text(player.Username);
      const carKey = text(player.Car);
      if (!carKey) return;
      let clock = 0;
      let carLap = 0;
      for (const rawLap of Array.isArray(player.RaceSessionLaps) ? player.RaceSessionLaps : []) {
        carLap += 1;
        const l = (rawLap ?? {}) as Record<string, unknown>;
        const lapMs = timeOrNull(l.Time);
        if (lapMs === null) continue;
        clock += lapMs;
        laps.push({
          guid,
          name,
          carKey,
          lapMs,
          sectorsMs: sectorsOf(l.SectorTimes),
          cuts: l.Valid === false ? 1 : 0,
          ballastKg: null,
          valid: l.Valid !== false,
          atMs: clock <= MAX_SESSION_MS ? clock : null,
          carId: null,
          carLap,
        });
      }
      if (!name) return;
      results.push({
        position: 0,
        guid,
        name,
        team: text(player.Team),
        carKey,
        carId: null,
        bestLapMs: timeOrNull(player.BestLapTime),
        totalMs: timeOrNull(player.TotalTime),
        laps: intIn(carLap, 0, MAX_LAP_COUNT) ?? 0,
        order: intIn(player.Position, 1, 10_000) ?? Number.MAX_SAFE_INTEGER,
      } as ParsedResult & { order: number });
    });
    const ordered = (results as (ParsedResult & { order: number })[])
      .sort((a, b) => a.order - b.order)
      .map(({ order: _order, ...r }, i) => ({ ...r, position: i + 1 }));
    return [
      {
        sim: 'r3e',
        trackKey,
        layout,
        kind: kindOf(type),
        serverName,
        sessionKey: sessionKeyOf([
          'r3e',
          serverName,
          trackKey,
          layout,
          type,
          index,
          start,
          laps.length,
          resultsPrint(ordered),
        ]),
        laps,
        results: ordered,
      },
    ];
  });
}
