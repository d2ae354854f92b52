import crypto from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ImportResponse, Lap, LapIngest, LapsQuery } from '@paddock/contract/laps';
import { formatLapTime } from '@paddock/contract/laps';
import type { Paginated } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { laps, raceResults, raceSessions, rigKeys } from '../../db/schema/laps';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { NotFound, Unauthorized, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import type { Queryable } from '../../plugins/payments/charge-card';
import { ensureCar, ensureTrack, lapOwner, lapOwners } from './catalog-upkeep';
import * as repo from './laps.repo';
import { forgetBoardResults } from './boards.service';
import {
  announceAfterCommit,
  publishChange,
  storeChange,
  type Change,
} from '../../plugins/changes';
import { parseResultsFile, ResultsFileError, type ParsedSession } from './results-files';
import type { RfactorSim } from './results-rfactor';
import { sha256Hex } from '../../lib/hash';
import { recordAudit } from '../audit/audit.service';

const sha256 = sha256Hex;

export const RIG_SCHEME = 'Rig';

/** The seat a rig key belongs to; a missing, unknown or revoked key is a 401. */
export async function rigFromHeader(db: Db, header: string | undefined) {
  const [scheme, key] = (header ?? '').split(' ');
  if (scheme !== RIG_SCHEME || !key)
    throw new Unauthorized('A rig key is required: Authorization: Rig <key>.', 'rig_key_required');
  const [row] = await db
    .select({ id: rigKeys.id, calendarId: rigKeys.calendarId })
    .from(rigKeys)
    .where(and(eq(rigKeys.keyHash, sha256(key)), isNull(rigKeys.revokedAt)));
  if (!row) throw new Unauthorized('This rig key is not valid.', 'rig_key_invalid');
  return row;
}

export function newRigKey() {
  const key = `rig_${crypto.randomBytes(24).toString('base64url')}`;
  return { key, keyHash: sha256(key) };
}

/** Laps on a track changed: its boards may have too (the change feed, after commit). */
async function announce(tx: Queryable, trackId: number) {
  await publishChange(tx, 'laps', trackId);
  await publishChange(tx, 'boards', null);
}

/** The same changes, stored in the lap's transaction, for announceAfterCommit (decision 0053). */
async function storeLapChanges(tx: Queryable, trackId: number): Promise<Change[]> {
  return [await storeChange(tx, 'laps', trackId), await storeChange(tx, 'boards', null)];
}

const invalidReason = (cuts: number) =>
  cuts > 0 ? `Track limits: ${cuts} cut${cuts === 1 ? '' : 's'}` : '';

/**
 * A lap from a rig. The same client lap id from the same rig is stored once (a resend answers
 * the stored lap); the lap goes to the racer (sim id, else the booking on that seat) and
 * their personal best is kept in the same transaction.
 */
export async function ingestLap(
  db: Db,
  rig: { id: number; calendarId: number },
  body: LapIngest,
): Promise<{ id: number; created: boolean }> {
  return storeLap(
    db,
    { calendarId: rig.calendarId, sourceKey: `rig:${rig.id}:${body.client_lap_id}` },
    body,
  );
}

/**
 * A lap driven on a seat, stored once under `sourceKey` (the rig path, and the AC dedicated
 * server's plugin link): owner, personal best and the change feed in one transaction.
 */
export async function storeLap(
  db: Db,
  from: { calendarId: number; sourceKey: string },
  body: LapIngest,
): Promise<{ id: number; created: boolean }> {
  const { calendarId, sourceKey } = from;
  let changes: Change[] = [];
  const stored = await db
    .transaction(async (tx) => {
      const trackId = await ensureTrack(tx, body.sim, body.track, body.layout);
      const carId = await ensureCar(tx, body.sim, body.car);
      const recordedAt = new Date(body.recorded_at);
      const userId = await lapOwner(tx, {
        calendarId,
        recordedAt,
        guid: body.driver_guid,
      });
      const inserted = await tx
        .insert(laps)
        .values({
          userId,
          calendarId,
          trackId,
          carId,
          sim: body.sim,
          lapMs: body.lap_ms,
          sectorsMs: body.sectors_ms,
          cuts: body.cuts,
          tyre: body.tyre,
          fuel: body.fuel,
          ballastKg: body.ballast_kg,
          driverGuid: body.driver_guid,
          driverName: body.driver_name,
          recordedAt,
          sourceKey,
          valid: body.cuts === 0,
          invalidReason: invalidReason(body.cuts),
        })
        .onConflictDoNothing()
        .returning({ id: laps.id });
      if (inserted.length === 0) {
        const [existing] = await tx
          .select({ id: laps.id })
          .from(laps)
          .where(eq(laps.sourceKey, sourceKey));
        return { id: existing.id, created: false };
      }
      if (userId !== null) await repo.refreshPersonalBest(tx, userId, trackId, carId);
      changes = await storeLapChanges(tx, trackId);
      return { id: inserted[0].id, created: true };
    })
    .finally(forgetBoardResults);
  await announceAfterCommit(db, { changes });
  return stored;
}

/** Laps per INSERT: 500 × 15 columns stays far below PostgreSQL's 65 535 parameters. */
const IMPORT_BATCH = 500;

type FileLap = ParsedSession['laps'][number];
type ImportOptions = {
  /** The stored key of the file's i-th lap; default `import:{session key}:{i}`. The AC server
   *  link gives its laps the keys their live copies got (car and lap number), so a lap that
   *  came live is stored once and the file's copy fills in what it lacked (the driver). */
  sourceKey?: (lap: FileLap, index: number) => string;
  /** The seat (calendar id) a car of the file drove on: the party's entry list. */
  seatOf?: (carId: number) => number | undefined;
  /** Which sim wrote an rFactor XML file: rFactor 2 (the default) or Le Mans Ultimate. */
  xmlSim?: RfactorSim;
  /** The live timing's result of the same session (its session key, decision 0122): the file's
   *  result takes its place in the same transaction, so the session is counted once. */
  replacesSessionKey?: string;
};

/**
 * Imports a results file (AC, ACC, rFactor 2 / LMU, RaceRoom), every session it
 * holds. One transaction: a malformed file imports nothing; a session already imported (recognised by its content, not its bytes) adds nothing and says
 * so. Laps and results go to their drivers by `lapOwner`, the one rule: the racer with that sim
 * id, else the customer booked on the car's seat at the lap's time, when `seatOf` says which
 * seat the car came from (the AC server link does; a file uploaded by staff has no seats).
 */
export async function importResults(
  db: Db,
  caller: { id: number } | null,
  bytes: Buffer,
  now = new Date(),
  options: ImportOptions = {},
): Promise<ImportResponse> {
  let sessions: ParsedSession[];
  try {
    sessions = parseResultsFile(bytes, { xmlSim: options.xmlSim });
  } catch (error) {
    if (error instanceof ResultsFileError) throw ValidationError.field('file', error.message);
    throw error;
  }
  const fileSha = sha256(bytes);
  const seatOf = (carId: number | null) =>
    carId === null ? null : (options.seatOf?.(carId) ?? null);
  return db
    .transaction(async (tx) => {
      const matched = new Set<number>();
      const drivers = new Set<string>();
      const total = { fresh: 0, added: 0, filled: 0, skipped: 0 };
      // Imported now or before, the file's session is the one kept: the live copy goes.
      if (options.replacesSessionKey)
        await tx
          .delete(raceSessions)
          .where(eq(raceSessions.sessionKey, options.replacesSessionKey));
      for (const [n, session] of sessions.entries()) {
        for (const r of session.results) drivers.add(r.guid || r.name);
        // A file of several sessions (RaceRoom) keeps one file digest per session.
        const sha = n === 0 ? fileSha : `${fileSha}:${n}`;
        const done = await importSession(tx, session, sha, caller, now, seatOf, options, matched);
        if (done === null) {
          total.skipped += session.laps.length;
          continue;
        }
        total.fresh += 1;
        total.added += done.added;
        total.filled += done.filled;
        total.skipped += session.laps.length - done.added;
      }
      return {
        sim: sessions[0].sim,
        track: sessions[0].trackKey,
        session: [...new Set(sessions.map((s) => s.kind))].join(', '),
        drivers: drivers.size,
        already_imported: total.fresh === 0,
        laps_added: total.added,
        laps_filled: total.filled,
        laps_skipped: total.skipped,
        drivers_matched: total.fresh === 0 ? 0 : matched.size,
      };
    })
    .finally(forgetBoardResults);
}

/**
 * One session of a file, in the import's transaction: null when it was imported before (by
 * its content), else the laps it added and filled. Racers matched are added to `matched`.
 */
async function importSession(
  tx: Queryable,
  session: ParsedSession,
  fileSha: string,
  caller: { id: number } | null,
  now: Date,
  seatOf: (carId: number | null) => number | null,
  options: ImportOptions,
  matched: Set<number>,
): Promise<{ added: number; filled: number } | null> {
  const trackId = await ensureTrack(tx, session.sim, session.trackKey, session.layout);
  const [raceSession] = await tx
    .insert(raceSessions)
    .values({
      fileSha,
      sessionKey: session.sessionKey,
      sim: session.sim,
      trackId,
      kind: session.kind,
      serverName: session.serverName,
      importedById: caller?.id ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: raceSessions.id });
  if (!raceSession) return null;
  const ownerOf = lapOwners(tx);
  const carIds = new Map<string, number>();
  for (const key of new Set([...session.laps, ...session.results].map((x) => x.carKey)))
    carIds.set(key, await ensureCar(tx, session.sim, key));

  // The file has no wall-clock date: laps are placed before the import, in session order.
  let lastAt = 0;
  for (const l of session.laps) if (l.atMs !== null && l.atMs > lastAt) lastAt = l.atMs;
  const atOf = (l: FileLap) => new Date(now.getTime() - (lastAt - (l.atMs ?? lastAt)));
  /** When each car last crossed the line: the time its result is attributed at. */
  const carLastAt = new Map<number, Date>();
  const rowOf = async (l: FileLap, i: number) => {
    const recordedAt = atOf(l);
    const calendarId = seatOf(l.carId);
    const userId = await ownerOf({ calendarId, recordedAt, guid: l.guid });
    if (userId !== null) matched.add(userId);
    if (l.carId !== null) carLastAt.set(l.carId, recordedAt);
    return {
      userId,
      calendarId,
      trackId,
      carId: carIds.get(l.carKey)!,
      sim: session.sim,
      lapMs: l.lapMs,
      sectorsMs: l.sectorsMs,
      cuts: l.cuts,
      ballastKg: l.ballastKg,
      driverGuid: l.guid,
      driverName: l.name,
      recordedAt,
      sourceKey: options.sourceKey?.(l, i) ?? `import:${session.sessionKey}:${i}`,
      valid: l.valid,
      invalidReason: l.valid ? '' : invalidReason(Math.max(1, l.cuts)),
    };
  };
  // Rows are made a batch at a time: a 10 MB file holds 52 000 laps, and a second copy of
  // them all as rows need not be held at once under the server's heap limit (issue 27).
  let added = 0;
  let filled = 0;
  const bests = new Set<string>();
  for (let i = 0; i < session.laps.length; i += IMPORT_BATCH) {
    const batch: Awaited<ReturnType<typeof rowOf>>[] = [];
    for (const [j, l] of session.laps.slice(i, i + IMPORT_BATCH).entries())
      batch.push(await rowOf(l, i + j));
    // A lap stored already under the same key (it came live) is not stored again; the
    // file's copy fills in the driver a missed NEW_CONNECTION left out, and the owner
    // when the live lap found none.
    const stored = await tx
      .insert(laps)
      .values(batch)
      .onConflictDoUpdate({
        target: laps.sourceKey,
        set: {
          driverGuid: sql`case when ${laps.driverGuid} = '' then excluded.driver_guid else ${laps.driverGuid} end`,
          driverName: sql`case when ${laps.driverName} = '' then excluded.driver_name else ${laps.driverName} end`,
          userId: sql`coalesce(${laps.userId}, excluded.user_id)`,
          calendarId: sql`coalesce(${laps.calendarId}, excluded.calendar_id)`,
        },
        setWhere: sql`(${laps.driverGuid} = '' and excluded.driver_guid <> '')
              or (${laps.driverName} = '' and excluded.driver_name <> '')
              or (${laps.userId} is null and excluded.user_id is not null)`,
      })
      .returning({
        userId: laps.userId,
        carId: laps.carId,
        inserted: sql<boolean>`xmax = 0`,
      });
    for (const row of stored) {
      if (row.inserted) added += 1;
      else filled += 1;
      if (row.userId !== null) bests.add(`${row.userId}|${trackId}|${row.carId}`);
    }
  }
  const fastest = Math.min(...session.results.map((r) => r.bestLapMs ?? Number.POSITIVE_INFINITY));
  const resultRows = [];
  for (const r of session.results) {
    const userId = await ownerOf({
      calendarId: seatOf(r.carId),
      recordedAt: (r.carId !== null && carLastAt.get(r.carId)) || now,
      guid: r.guid,
    });
    if (userId !== null) matched.add(userId);
    resultRows.push({
      sessionId: raceSession.id,
      position: r.position,
      userId,
      driverGuid: r.guid,
      driverName: r.name,
      teamName: r.team,
      carId: carIds.get(r.carKey)!,
      bestLapMs: r.bestLapMs,
      totalMs: r.totalMs,
      laps: r.laps,
      fastestLap: r.bestLapMs !== null && r.bestLapMs === fastest,
      pole: session.kind === 'QUALIFY' && r.position === 1,
    });
  }
  if (resultRows.length) await tx.insert(raceResults).values(resultRows);
  await refreshBestsOf(tx, bests);
  if (added + filled > 0) await announce(tx, trackId);
  return { added, filled };
}

/** `keys`: `userId|trackId|carId` of each personal best the import may have changed. */
async function refreshBestsOf(tx: Queryable, keys: Set<string>) {
  for (const key of keys) {
    const [userId, trackId, carId] = key.split('|').map(Number);
    await repo.refreshPersonalBest(tx, userId, trackId, carId);
  }
}

const maySeeAllLaps = (caller: AuthUser) => hasPermission(caller, 'laps.change_lap');

/** `/laps`: a customer's own laps; staff with laps.change_lap anyone's (`user`) or all. */
export async function listLaps(
  db: Db,
  caller: AuthUser,
  query: LapsQuery,
): Promise<Paginated<Lap>> {
  const requested = query.user === 'me' ? caller.id : query.user;
  const userId = maySeeAllLaps(caller) ? requested : caller.id;
  if (requested !== undefined && requested !== caller.id && !maySeeAllLaps(caller))
    throw new NotFound();
  const filter: repo.LapFilter = {
    userId,
    validOnly: query.approved === true,
    search: query.search,
    trackId: query.track,
    groupId: query.car__groups__id,
  };
  const ranked = query.ordering === 'rank';
  const page = await paginate(
    query,
    () => repo.countLaps(db, filter),
    (limit, offset) => repo.pageLaps(db, filter, ranked, limit, offset),
  );
  const first = (query.page - 1) * query.page_size;
  return {
    ...page,
    results: page.results.map((row, i) => repo.toLap(row, ranked ? first + i + 1 : null)),
  };
}

/** Staff: invalidate or restore a lap (with a reason, kept) and give it to another racer. */
export async function reviewLap(
  db: Db,
  caller: AuthUser,
  id: number,
  body: { approved?: boolean; reason?: string; user?: number | null },
): Promise<Lap> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(laps).where(eq(laps.id, id)).for('update');
    if (!row) throw new NotFound();
    if (body.approved === false && !body.reason)
      throw ValidationError.field('reason', 'Say why the lap is not valid.');
    if (body.user !== undefined && body.user !== null) {
      const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.id, body.user));
      if (!u)
        throw ValidationError.field('user', `Invalid pk "${body.user}" - object does not exist.`);
    }
    const changes: Partial<typeof laps.$inferInsert> = {};
    if (body.approved !== undefined) {
      changes.valid = body.approved;
      changes.invalidReason = body.approved ? '' : body.reason!;
    }
    if (body.user !== undefined) changes.userId = body.user;
    if (Object.keys(changes).length === 0) return;
    await tx.update(laps).set(changes).where(eq(laps.id, id));
    await announce(tx, row.trackId);
    await recordAudit(tx, caller, {
      action: 'lap.review',
      targetType: 'lap',
      targetId: id,
      subjectUserId: changes.userId ?? row.userId,
      before: { valid: row.valid, reason: row.invalidReason, user: row.userId },
      after: {
        valid: changes.valid ?? row.valid,
        reason: changes.invalidReason ?? row.invalidReason,
        user: changes.userId === undefined ? row.userId : changes.userId,
      },
    });
    for (const userId of new Set([row.userId, changes.userId ?? row.userId]))
      if (userId !== null && userId !== undefined)
        await repo.refreshPersonalBest(tx, userId, row.trackId, row.carId);
  });
  forgetBoardResults();
  const [row] = await repo.selectLaps(db).where(eq(laps.id, id));
  return repo.toLap(row);
}

/** Popularity of a track: its laps in the last 90 days. */
export const POPULAR_DAYS = 90;

/** My progress: the racer's sessions on a track (a day's valid laps in one car), by car. */
export async function lapProgress(db: Db, userId: number, trackId: number) {
  const rows = await db.execute<{
    day: string;
    car: number;
    car_name: string;
    best: number;
    laps: number;
  }>(sql`
    select to_char(date_trunc('day', l.recorded_at), 'YYYY-MM-DD') as day, l.car_id as car,
      c.name as car_name, min(l.lap_ms)::int as best, count(*)::int as laps
    from laps l join cars c on c.id = l.car_id
    where l.user_id = ${userId} and l.track_id = ${trackId} and l.valid
    group by 1, 2, 3 order by c.name, 2, 1`);
  const bestByCar = new Map<number, number>();
  return rows.rows.map((row) => {
    const before = bestByCar.get(row.car) ?? Number.POSITIVE_INFINITY;
    bestByCar.set(row.car, Math.min(before, row.best));
    return {
      date: row.day,
      car: row.car,
      car_name: row.car_name,
      best_ms: row.best,
      hms: formatLapTime(row.best),
      laps: row.laps,
      personal_best: row.best < before,
    };
  });
}
