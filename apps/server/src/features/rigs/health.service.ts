// Each seat's rig agent reports its health (issue 43, decision 0121): its version, whether the
// sim runs, the free disk of its results folder; kept with the time it was last seen, one row per
// seat, for the rig map (`readRigHealth`).
import { inArray, sql } from 'drizzle-orm';
import type { RigHealth } from '@paddock/contract/rigs';
import type { Db } from '../../db/client';
import { rigHealth } from '../../db/schema/rigs';

export interface HealthReport {
  version: string;
  sim_running: boolean;
  disk_free_bytes: number | null;
}

/** A report from the agent holding `rig`'s key: its seat's row, now. */
export async function recordRigHealth(
  db: Db,
  rig: { id: number; calendarId: number },
  report: HealthReport,
) {
  const values = {
    calendarId: rig.calendarId,
    rigKeyId: rig.id,
    agentVersion: report.version,
    simRunning: report.sim_running,
    diskFreeBytes: report.disk_free_bytes,
    lastSeen: sql`now()`,
  };
  await db
    .insert(rigHealth)
    .values(values)
    .onConflictDoUpdate({ target: rigHealth.calendarId, set: values });
}

/** The seats' last reports (all seats' when `calendarIds` is not given). */
export async function readRigHealth(db: Db, calendarIds?: number[]): Promise<RigHealth[]> {
  if (calendarIds && calendarIds.length === 0) return [];
  const rows = await db
    .select()
    .from(rigHealth)
    .where(calendarIds ? inArray(rigHealth.calendarId, calendarIds) : undefined)
    .orderBy(rigHealth.calendarId);
  return rows.map((r) => ({
    calendar: r.calendarId,
    version: r.agentVersion,
    sim_running: r.simRunning,
    disk_free_bytes: r.diskFreeBytes,
    last_seen: r.lastSeen.toISOString(),
  }));
}
