import type {
  Location,
  LocationCreate,
  LocationUpdate,
  SlotPreview,
  SlotPreviewRequest,
} from '@paddock/contract/locations';
import { DateTime } from 'luxon';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { daySlots, isValidZone } from '../../lib/slots';
import { publishChange } from '../../plugins/changes';
import { NotFound, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import * as repo from './locations.repo';
import type { AuthUser } from '../../plugins/auth';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit, type AuditEntry } from '../audit/audit.service';
import { changedFields } from '../audit/audit-diff';

export function toLocation(row: repo.LocationRow): Location {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    timezone: row.timezone,
    currency: row.currency,
    sales_tax_rate_percent: Number(row.salesTaxRatePercent),
    booking_fee_cents: row.bookingFeeCents,
    booking_fees_threshold: row.bookingFeesThreshold,
    post_booking_url: row.postBookingUrl,
    cancellation_window_hours: row.cancellationWindowHours,
    late_cancellation_keep_percent: row.lateCancellationKeepPercent,
    opening_hours: row.openingHours,
    special_hours: row.specialHours,
  };
}

export function listLocations(db: Db, query: PaginationQuery): Promise<Paginated<Location>> {
  return paginate(
    query,
    () => repo.countLocations(db),
    async (limit, offset) => (await repo.pageLocations(db, limit, offset)).map(toLocation),
  );
}

export async function getLocation(db: Db, id: number): Promise<Location> {
  const row = await repo.findLocation(db, id);
  if (!row) throw new NotFound();
  return toLocation(row);
}

/** The signed-in user's own location when set, else the first location. */
export async function nearestLocation(db: Db, userId: number | null): Promise<Location> {
  const own = userId ? await repo.userLocationId(db, userId) : null;
  const row = (own ? await repo.findLocation(db, own) : null) ?? (await repo.firstLocation(db));
  if (!row) throw new NotFound();
  return toLocation(row);
}

const ZONE_MESSAGE = 'Enter a valid IANA time zone, e.g. America/Los_Angeles.';

function assertZone(zone: string | undefined) {
  if (zone !== undefined && !isValidZone(zone))
    throw ValidationError.field('timezone', ZONE_MESSAGE);
}

/** The API's fields as the table's columns (undefined: left as it is, or its default). */
function columnsOf(values: LocationUpdate): Partial<repo.LocationInsert> {
  return {
    name: values.name,
    address: values.address,
    timezone: values.timezone,
    currency: values.currency,
    salesTaxRatePercent:
      values.sales_tax_rate_percent === undefined
        ? undefined
        : values.sales_tax_rate_percent.toFixed(3),
    bookingFeeCents: values.booking_fee_cents,
    bookingFeesThreshold: values.booking_fees_threshold,
    postBookingUrl: values.post_booking_url,
    cancellationWindowHours: values.cancellation_window_hours,
    lateCancellationKeepPercent: values.late_cancellation_keep_percent,
    openingHours: values.opening_hours,
    specialHours: values.special_hours,
  };
}

export async function createLocation(
  db: Db,
  actor: AuthUser,
  values: LocationCreate,
): Promise<Location> {
  assertZone(values.timezone);
  const columns = Object.fromEntries(
    Object.entries(columnsOf(values)).filter(([, v]) => v !== undefined),
  ) as repo.LocationInsert;
  const row = await db.transaction(async (tx) => {
    const created = await repo.insertLocation(tx, columns);
    await recordAudit(tx, actor, {
      action: 'location.create',
      targetType: 'location',
      targetId: created.id,
      after: toLocation(created),
    });
    await publishChange(tx, 'settings');
    return created;
  });
  return toLocation(row);
}

/** Acts of their own in the trail: the desk looks for "who changed the hours" by itself. */
const HOURS_ACTS = {
  opening_hours: 'location.opening_hours',
  special_hours: 'location.special_hours',
};

export async function updateLocation(
  db: Db,
  actor: AuthUser,
  id: number,
  patch: LocationUpdate,
): Promise<Location> {
  assertZone(patch.timezone);
  const row = await db.transaction(async (tx) => {
    const columns = columnsOf(patch);
    const old = await repo.findLocation(tx, id);
    const updated = await repo.updateLocation(tx, id, columns);
    if (old && updated) await auditLocationChange(tx, actor, toLocation(old), toLocation(updated));
    // An empty PATCH changes nothing, so nobody needs to hear about it.
    if (updated && Object.values(columns).some((v) => v !== undefined))
      await publishChange(tx, 'settings');
    return updated;
  });
  if (!row) throw new NotFound();
  return toLocation(row);
}

async function auditLocationChange(
  tx: Queryable,
  actor: AuthUser,
  before: Location,
  after: Location,
) {
  const entries: AuditEntry[] = [];
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const [field, action] of Object.entries(HOURS_ACTS)) {
    const change = changedFields(b, a, [field]);
    if (change) entries.push({ action, targetType: 'location', targetId: after.id, ...change });
  }
  const rest = Object.keys(a).filter((k) => !(k in HOURS_ACTS));
  const change = changedFields(b, a, rest);
  if (change)
    entries.push({
      action: 'location.update',
      targetType: 'location',
      targetId: after.id,
      ...change,
    });
  await recordAudit(tx, actor, entries);
}

/** The slots the given hours open on a date, by the same rules that decide what is bookable. */
export function previewSlots(request: SlotPreviewRequest): SlotPreview {
  assertZone(request.timezone);
  const hours = {
    timezone: request.timezone,
    openingHours: request.opening_hours,
    specialHours: request.special_hours ?? {},
  };
  const midnight = DateTime.fromISO(request.date, { zone: request.timezone }).startOf('day');
  if (!midnight.isValid) throw ValidationError.field('date', 'Enter a date as YYYY-MM-DD.');
  const halfHours = midnight.plus({ days: 1 }).diff(midnight, 'minutes').minutes / 30;
  return {
    date: request.date,
    timezone: request.timezone,
    half_hours_in_day: halfHours,
    slots: daySlots(hours, request.date).map(({ slot, time }) => ({ slot, time })),
  };
}
