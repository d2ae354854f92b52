// The classified result of a session, stored from the live feed the moment its tower turns final
// (decision 0122): a race session and its results as an imported file makes them, so the POINTS
// boards count it at once. The server's results file, when it comes, takes its place in the
// import's transaction (`replacesSessionKey`): one result per session, the file's the last word.
import type { TimingTower } from '@paddock/contract/live-timing';
import type { Db } from '../../db/client';
import { raceResults, raceSessions } from '../../db/schema/laps';
import { announceAfterCommit, storeChange } from '../../plugins/changes';
import { lapOwner } from '../laps/catalog-upkeep';
import { forgetBoardResults } from '../laps/boards.service';

/** The key a live session's result is stored under: the run of the party's server, and the
 *  session in it as the link counts them (the import of its file names the same). */
export const liveSessionKey = (
  sim: 'ac' | 'acc',
  partyId: number,
  runId: string,
  session: number,
) => `live:${sim}:${partyId}:${runId}:${session}`;

export interface LiveResultContext {
  sessionKey: string;
  trackId: number;
  serverName: string;
  /** Car index → seat (calendar id). */
  seats: number[];
  /** Car index → catalogue car id. */
  cars: number[];
}

const KINDS = { RACE: 'RACE', QUALIFYING: 'QUALIFY', PRACTICE: 'PRACTICE' } as const;

/** Stores the final tower as the session's result, once (false when it was already stored). */
export async function storeLiveResult(
  db: Db,
  tower: TimingTower,
  ctx: LiveResultContext,
  now = new Date(),
): Promise<boolean> {
  // Classified: the cars that completed a lap, in the tower's order.
  const rows = tower.rows.filter((r) => r.laps > 0);
  if (rows.length === 0) return false;
  const change = await db.transaction(async (tx) => {
    const [session] = await tx
      .insert(raceSessions)
      .values({
        fileSha: ctx.sessionKey,
        sessionKey: ctx.sessionKey,
        sim: tower.sim,
        trackId: ctx.trackId,
        kind: KINDS[tower.session.type],
        serverName: ctx.serverName,
      })
      .onConflictDoNothing()
      .returning({ id: raceSessions.id });
    if (!session) return null;
    const values = [];
    for (const [i, r] of rows.entries()) {
      const car = r.number - 1;
      const carId = ctx.cars[car];
      if (carId === undefined) continue;
      const userId = await lapOwner(tx, {
        calendarId: ctx.seats[car] ?? null,
        recordedAt: now,
        guid: '',
      });
      values.push({
        sessionId: session.id,
        position: i + 1,
        userId,
        driverName: r.driver,
        teamName: r.team,
        carId,
        bestLapMs: r.best_lap_ms,
        totalMs: r.total_ms,
        laps: r.laps,
        fastestLap: r.best_lap_mark === 'session_best',
        pole: tower.session.type === 'QUALIFYING' && i === 0,
      });
    }
    if (values.length) await tx.insert(raceResults).values(values);
    return storeChange(tx, 'boards', null);
  });
  if (!change) return false;
  forgetBoardResults();
  await announceAfterCommit(db, { changes: [change] });
  return true;
}
