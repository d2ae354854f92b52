import { cars, raceResults, raceSessions, tracks } from '../db/schema/laps';
import type { TestApp } from './test-app';

/**
 * A track of its own with one car, and its sessions and finishes written straight to the tables,
 * as an import (or psql) leaves them: `session(kind, minutesAgo)`, `finish(session, position)`.
 */
export async function ownTrack(t: TestApp, name: string) {
  const tag = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const [track] = await t.db.insert(tracks).values({ sim: 'ac', key: tag, name }).returning();
  const [car] = await t.db
    .insert(cars)
    .values({ sim: 'ac', key: `${tag}-car`, name: `${name} car` })
    .returning();
  let sessions = 0;
  const session = async (kind: string, minutesAgo: number) =>
    (
      await t.db
        .insert(raceSessions)
        .values({
          fileSha: `${tag}-${(sessions += 1)}`,
          sessionKey: `${tag}-${sessions}`,
          sim: 'ac',
          trackId: track.id,
          kind,
          importedAt: new Date(Date.now() - minutesAgo * 60_000),
        })
        .returning()
    )[0];
  const finish = (sessionId: number, position: number, pole = false, racer = `${name} Racer`) => ({
    sessionId,
    position,
    driverGuid: `${tag}-${racer}`,
    driverName: racer,
    carId: car.id,
    pole,
  });
  const finished = async (...rows: ReturnType<typeof finish>[]) => {
    await t.db.insert(raceResults).values(rows);
  };
  return { track, session, finish, finished };
}
