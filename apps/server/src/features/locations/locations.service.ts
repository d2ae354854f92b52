import type { Location, LocationUpdate } from '@paddock/contract/locations';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { isValidZone } from '../../lib/slots';
import { NotFound, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import * as repo from './locations.repo';

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

export async function updateLocation(db: Db, id: number, patch: LocationUpdate): Promise<Location> {
  if (patch.timezone !== undefined && !isValidZone(patch.timezone))
    throw ValidationError.field(
      'timezone',
      'Enter a valid IANA time zone, e.g. America/Los_Angeles.',
    );
  const row = await repo.updateLocation(db, id, {
    name: patch.name,
    address: patch.address,
    timezone: patch.timezone,
    currency: patch.currency,
    salesTaxRatePercent:
      patch.sales_tax_rate_percent === undefined
        ? undefined
        : patch.sales_tax_rate_percent.toFixed(3),
    bookingFeeCents: patch.booking_fee_cents,
    bookingFeesThreshold: patch.booking_fees_threshold,
    postBookingUrl: patch.post_booking_url,
    cancellationWindowHours: patch.cancellation_window_hours,
    lateCancellationKeepPercent: patch.late_cancellation_keep_percent,
    openingHours: patch.opening_hours,
    specialHours: patch.special_hours,
  });
  if (!row) throw new NotFound();
  return toLocation(row);
}
