import { asc, eq, sql } from 'drizzle-orm';
import {
  OFFLINE_ALERT_MINUTES,
  type RigHealth,
  type RigMap,
  type RigSession,
  type RigState,
} from '@paddock/contract/rig-map';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { locations } from '../../db/schema/venue';
import { currentEventSql } from '../../lib/current-event-sql';
import { findSlot, SLOT_MINUTES } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { NotFound } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { slotAround } from '../planner/planner.service';
import { readRigHealth } from '../rigs/health.service';
import { seatNow, type SeatSession } from './seat-now';

/**
 * The staff rig map's read model (issue 42, decision 0127): for every seat of a location, who
 * sits there now and next (`seatNow`, the one reading the rig screen and the agent share), the
 * event it runs, whether its rig holds that event's socket (decision 0115: only then does a Start
 * or an End reach it), the sim's load state, and the agent's health as far as it told.
 */

/** What the rig side of one seat says: its event, its socket, its sim. */
type RigRow = {
  calendar: number;
  event: number | null;
  party_name: string | null;
  event_seats: number[] | null;
  initialized: boolean | null;
  launched: boolean | null;
  exited: boolean | null;
  connected: boolean;
};

async function rigRows(db: Queryable, location: number): Promise<Map<number, RigRow>> {
  const { rows } = await db.execute<RigRow>(sql`
    select c.id as calendar, ev.event,
      (select p.name from parties p join party_members m on m.party_id = p.id
        where p.host_event_id = ev.event and m.calendar_id = c.id limit 1) as party_name,
      (select array_agg(o.calendar_id order by o.calendar_id) from event_entries o
        where o.event_id = ev.event and o.calendar_id <> c.id) as event_seats,
      e.initialized, e.launched, e.exited,
      exists (select 1 from rig_connections r where r.calendar_id = c.id
        and r.event_id = ev.event and r.expires_at > now()) as connected
    from calendars c
    cross join lateral (select ${currentEventSql(sql`c.id`)} as event) ev
    left join event_entries e on e.event_id = ev.event and e.calendar_id = c.id
    where c.location_id = ${location} and c.active`);
  return new Map(rows.map((r) => [r.calendar, r]));
}

/**
 * The agent's health per seat, as it last reported (issue 43, decision 0121): until a seat's
 * agent has told, every field is null and the map shows nothing for it.
 */
export type HealthLookup = (
  db: Db,
  calendars: number[],
) => Promise<Map<number, RigHealth & { lastSeen: Date | null }>>;

export const agentHealth: HealthLookup = async (db, calendars) =>
  new Map(
    (await readRigHealth(db, calendars)).map((h) => [
      h.calendar,
      {
        agent_version: h.version,
        last_seen: h.last_seen,
        lastSeen: new Date(h.last_seen),
        sim_running: h.sim_running,
        disk_free_bytes: h.disk_free_bytes,
      },
    ]),
  );

const EMPTY_HEALTH: RigHealth = {
  agent_version: null,
  last_seen: null,
  sim_running: null,
  disk_free_bytes: null,
};

/** The first state that holds, in the order of `RIG_STATES`. */
export function rigState(seat: {
  outOfService: boolean;
  connected: boolean;
  initialized: boolean;
  launched: boolean;
  inSession: boolean;
}): RigState {
  if (seat.outOfService) return 'out_of_service';
  if (!seat.connected) return 'offline';
  if (seat.initialized && !seat.launched) return 'starting';
  if (seat.inSession) return seat.launched ? 'in_session' : 'sim_not_running';
  return 'idle';
}

/** The venue is open at `at` (a slot of its opening hours covers it). */
function openAt(location: typeof locations.$inferSelect, at: Date): boolean {
  const hours = {
    timezone: location.timezone,
    openingHours: location.openingHours,
    specialHours: location.specialHours,
  };
  return findSlot(hours, slotAround(at, location.timezone)) !== null;
}

/** The half-hour of a session running at `at` (null for a session still to come). */
export function halfHourAt(session: SeatSession, at: Date): number | null {
  const index = Math.floor((at.getTime() - session.starts.getTime()) / (SLOT_MINUTES * 60_000));
  return index >= 0 ? (session.reservations[index] ?? null) : null;
}

function sessionOut(session: SeatSession | null, at: Date): RigSession | null {
  if (!session) return null;
  return {
    reservation: session.reservation,
    now_reservation: halfHourAt(session, at),
    customer: session.customer,
    name: session.name,
    starts: session.starts.toISOString(),
    ends: session.ends.toISOString(),
    paid: session.paid,
    club: session.club,
  };
}

/** The location asked for, else the caller's own, else the first. */
async function locationFor(db: Queryable, caller: AuthUser, asked: number | undefined) {
  let id = asked;
  if (id === undefined) {
    const [own] = await db
      .select({ location: users.locationId })
      .from(users)
      .where(eq(users.id, caller.id));
    id = own?.location ?? undefined;
  }
  const [location] = await db
    .select()
    .from(locations)
    .where(id === undefined ? undefined : eq(locations.id, id))
    .orderBy(asc(locations.id))
    .limit(1);
  if (!location) throw new NotFound();
  return location;
}

export async function rigMap(
  db: Db,
  caller: AuthUser,
  asked: number | undefined,
  now = new Date(),
  health: HealthLookup = agentHealth,
): Promise<RigMap> {
  const location = await locationFor(db, caller, asked);
  const seats = await seatNow(db, { location: location.id }, now);
  const rigs = await rigRows(db, location.id);
  const told = await health(
    db,
    seats.map((s) => s.seat),
  );
  const open = openAt(location, now);
  const alertAfterMs = OFFLINE_ALERT_MINUTES * 60_000;
  return {
    location: location.id,
    location_name: location.name,
    timezone: location.timezone,
    now: now.toISOString(),
    open_now: open,
    tiles: seats.map((seat) => {
      const rig = rigs.get(seat.seat);
      const agent = told.get(seat.seat);
      const connected = rig?.connected ?? false;
      const launched = !!rig?.launched && !rig.exited;
      const state = rigState({
        outOfService: seat.outOfService,
        connected,
        initialized: !!rig?.initialized && !rig.exited,
        launched,
        inSession: seat.current !== null,
      });
      const lastSeen = agent?.lastSeen ?? null;
      return {
        calendar: seat.seat,
        calendar_name: seat.seatName,
        state,
        rig_connected: connected,
        sim_launched: launched,
        event: rig?.event ?? null,
        party_name: rig?.party_name ?? null,
        event_seats: rig?.event_seats ?? [],
        current: sessionOut(seat.current, now),
        next: sessionOut(seat.next, now),
        health: agent
          ? {
              agent_version: agent.agent_version,
              last_seen: agent.last_seen,
              sim_running: agent.sim_running,
              disk_free_bytes: agent.disk_free_bytes,
            }
          : EMPTY_HEALTH,
        offline_alert:
          state === 'offline' &&
          open &&
          lastSeen !== null &&
          now.getTime() - lastSeen.getTime() >= alertAfterMs,
      };
    }),
  };
}
