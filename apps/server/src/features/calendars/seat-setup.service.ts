import type {
  CalendarType,
  CalendarTypeCreate,
  CalendarTypeUpdate,
  SeatAdmin,
  SeatCreate,
  SeatUpdate,
} from '@paddock/contract/calendars';
import type { Db } from '../../db/client';
import { publishChange } from '../../plugins/changes';
import { NotFound, ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { toCalendar } from './calendars.service';
import * as repo from './seat-setup.repo';
import type { AuthUser } from '../../plugins/auth';
import { recordAudit } from '../audit/audit.service';
import { changedFields, splitChanges } from '../audit/audit-diff';

export const SEAT_HAS_FUTURE_BOOKINGS =
  'This seat has future bookings. Cancel or move them before moving the seat to another location.';

/** An empty PATCH changes nothing, so nobody needs to hear about it. */
const changesSomething = (values: object) => Object.values(values).some((v) => v !== undefined);

const toType = (row: repo.TypeRow): CalendarType => ({
  id: row.id,
  name: row.name,
  image: row.image,
  description: row.description,
  is_vr: row.isVr,
  min_minutes: row.minMinutes,
});

const toSeatAdmin = (row: repo.SeatAdminRow): SeatAdmin => ({
  ...toCalendar(row),
  active: row.active,
  sort_order: row.sortOrder,
  steam_id: row.steamId,
});

/** '' and null both mean "no Steam account"; stored as null. */
const steamIdValue = (v: string | null | undefined) => (v === undefined ? undefined : v || null);

export async function createCalendarType(db: Db, actor: AuthUser, values: CalendarTypeCreate) {
  const row = await db.transaction(async (tx) => {
    const created = await repo.insertType(tx, {
      name: values.name,
      image: values.image,
      description: values.description,
      isVr: values.is_vr,
      minMinutes: values.min_minutes,
    });
    await recordAudit(tx, actor, {
      action: 'seat_type.create',
      targetType: 'calendar_type',
      targetId: created.id,
      after: toType(created),
    });
    await publishChange(tx, 'settings');
    return created;
  });
  return toType(row);
}

export async function updateCalendarType(
  db: Db,
  actor: AuthUser,
  id: number,
  values: CalendarTypeUpdate,
) {
  const row = await db.transaction(async (tx) => {
    const old = await repo.findType(tx, id);
    const updated = await repo.updateType(tx, id, {
      name: values.name,
      image: values.image,
      description: values.description,
      isVr: values.is_vr,
      minMinutes: values.min_minutes,
    });
    const change = old && updated && changedFields(toType(old), toType(updated));
    if (change)
      await recordAudit(tx, actor, {
        action: 'seat_type.update',
        targetType: 'calendar_type',
        targetId: id,
        ...change,
      });
    if (updated && changesSomething(values)) await publishChange(tx, 'settings');
    return updated;
  });
  if (!row) throw new NotFound();
  return toType(row);
}

export async function listLocationSeats(db: Db, locationId: number): Promise<SeatAdmin[]> {
  if (!(await repo.locationExists(db, locationId))) throw new NotFound();
  return (await repo.locationSeats(db, locationId)).map(toSeatAdmin);
}

async function assertReferences(db: Queryable, values: { type?: number; location?: number }) {
  if (values.type !== undefined && !(await repo.typeExists(db, values.type)))
    throw ValidationError.field('type', 'Seat type not found.');
  if (values.location !== undefined && !(await repo.locationExists(db, values.location)))
    throw ValidationError.field('location', 'Location not found.');
}

async function answer(db: Queryable, id: number): Promise<SeatAdmin> {
  const row = await repo.findSeatAdmin(db, id);
  if (!row) throw new NotFound();
  return toSeatAdmin(row);
}

/** What the trail keeps of a seat, in the API's names (`type` and `location` by id). */
function auditedSeat(seat: SeatAdmin): Record<string, unknown> {
  return {
    name: seat.name,
    type: seat.type,
    location: seat.location,
    cost_cents: seat.cost_cents,
    image: seat.image,
    active: seat.active,
    sort_order: seat.sort_order,
    steam_id: seat.steam_id,
  };
}

export async function createSeat(db: Db, actor: AuthUser, values: SeatCreate): Promise<SeatAdmin> {
  return db.transaction(async (tx) => {
    await assertReferences(tx, values);
    const id = await repo.insertSeat(tx, {
      name: values.name,
      typeId: values.type,
      locationId: values.location,
      costCents: values.cost_cents,
      image: values.image,
      active: values.active,
      sortOrder: values.sort_order ?? (await repo.nextSortOrder(tx, values.location)),
      steamId: steamIdValue(values.steam_id),
    });
    const created = await answer(tx, id);
    await recordAudit(tx, actor, {
      action: 'seat.create',
      targetType: 'calendar',
      targetId: id,
      after: auditedSeat(created),
    });
    await publishChange(tx, 'settings');
    return created;
  });
}

/**
 * Edits a seat. Moving it to another location is refused while it has live bookings ahead:
 * their slot keys are local to the old location's hours and time zone.
 */
export async function updateSeat(
  db: Db,
  actor: AuthUser,
  id: number,
  values: SeatUpdate,
  now = new Date(),
): Promise<SeatAdmin> {
  return db.transaction(async (tx) => {
    const seat = await repo.lockSeat(tx, id);
    if (!seat) throw new NotFound();
    await assertReferences(tx, values);
    if (
      values.location !== undefined &&
      values.location !== seat.locationId &&
      (await repo.countFutureReservations(tx, id, now)) > 0
    )
      throw ValidationError.field('location', SEAT_HAS_FUTURE_BOOKINGS);
    const before = auditedSeat(await answer(tx, id));
    await repo.updateSeat(tx, id, {
      name: values.name,
      typeId: values.type,
      locationId: values.location,
      costCents: values.cost_cents,
      image: values.image,
      active: values.active,
      sortOrder: values.sort_order,
      steamId: steamIdValue(values.steam_id),
    });
    const updated = await answer(tx, id);
    // A price change is its own act: "who changed the price of Rig 3" is a question on its own.
    const { own: price, rest } = splitChanges(before, auditedSeat(updated), ['cost_cents']);
    const at = { targetType: 'calendar', targetId: id };
    await recordAudit(tx, actor, [
      ...(price ? [{ action: 'seat.price', ...at, ...price }] : []),
      ...(rest ? [{ action: 'seat.update', ...at, ...rest }] : []),
    ]);
    if (changesSomething(values)) await publishChange(tx, 'settings');
    return updated;
  });
}
