// Race presets: saved track, cars and sessions to start an event from.
import { asc, eq } from 'drizzle-orm';
import { type Preset, type PresetCreate } from '@paddock/contract/races';
import type { Db } from '../../db/client';
import { racePresets, type PresetSession } from '../../db/schema/races';
import type { AuthUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import { recordAudit } from '../audit/audit.service';
import { loadEvents } from './load-events';

function toPreset(p: typeof racePresets.$inferSelect): Preset {
  return {
    id: p.id,
    name: p.name,
    track: p.trackId,
    cars: p.carIds,
    sessions: p.sessions,
    assists: p.assists,
    penalties: p.penalties,
    fixed_setup: p.fixedSetup,
    drift_mode: p.driftMode,
  };
}

export async function listPresets(db: Db): Promise<Preset[]> {
  const rows = await db
    .select()
    .from(racePresets)
    .orderBy(asc(racePresets.name), asc(racePresets.id));
  return rows.map(toPreset);
}

/** POST /races/presets: the event's settings saved under a name. */
export async function createPreset(db: Db, actor: AuthUser, body: PresetCreate): Promise<Preset> {
  return db.transaction(async (tx) => {
    const [event] = await loadEvents(tx, [body.event]);
    if (!event)
      throw ValidationError.field('event', `Invalid pk "${body.event}" - object does not exist.`);
    const sessions: PresetSession[] = event.sessions.map((s) => ({
      name: s.name,
      type: s.type,
      spawn: s.spawn,
      duration: s.duration,
      duration_is_laps: s.duration_is_laps,
    }));
    const [row] = await tx
      .insert(racePresets)
      .values({
        name: body.name,
        trackId: event.track,
        carIds: event.cars,
        sessions,
        assists: event.assists,
        penalties: event.penalties,
        fixedSetup: event.fixed_setup,
        driftMode: event.drift_mode,
      })
      .returning();
    await recordAudit(tx, actor, {
      action: 'races.create_preset',
      targetType: 'race_preset',
      targetId: row.id,
      after: { name: body.name, event: body.event },
    });
    return toPreset(row);
  });
}

export async function deletePreset(db: Db, actor: AuthUser, id: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(racePresets).where(eq(racePresets.id, id)).returning();
    if (!row) throw new NotFound();
    await recordAudit(tx, actor, {
      action: 'races.delete_preset',
      targetType: 'race_preset',
      targetId: id,
      before: { name: row.name },
    });
  });
}
