import { DateTime } from 'luxon';
import type { Db } from '../db/client';
import {
  calendarTypes,
  calendars,
  locations,
  type OpeningHours,
  type SpecialHours,
} from '../db/schema/venue';

type Ctx = { db: Db };

/** Open around the clock every day: any future half-hour is bookable in tests. */
export const ALL_DAY: OpeningHours = Object.fromEntries(
  ['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ open: '00:00', close: '00:00' }]]),
);

let counter = 0;

export async function createLocation(
  ctx: Ctx,
  opts: {
    name?: string;
    timezone?: string;
    currency?: string;
    salesTaxRatePercent?: string;
    bookingFeeCents?: number;
    bookingFeesThreshold?: number;
    postBookingUrl?: string;
    openingHours?: OpeningHours;
    specialHours?: SpecialHours;
  } = {},
) {
  counter += 1;
  const [row] = await ctx.db
    .insert(locations)
    .values({
      name: opts.name ?? `Track House ${counter}`,
      timezone: opts.timezone ?? 'America/Los_Angeles',
      currency: opts.currency ?? 'USD',
      salesTaxRatePercent: opts.salesTaxRatePercent ?? '0',
      bookingFeeCents: opts.bookingFeeCents ?? 0,
      bookingFeesThreshold: opts.bookingFeesThreshold ?? 4,
      postBookingUrl: opts.postBookingUrl ?? '',
      openingHours: opts.openingHours ?? ALL_DAY,
      specialHours: opts.specialHours ?? {},
    })
    .returning();
  return row;
}

export async function createCalendarType(
  ctx: Ctx,
  opts: { name?: string; description?: string; isVr?: boolean } = {},
) {
  counter += 1;
  const [row] = await ctx.db
    .insert(calendarTypes)
    .values({
      name: opts.name ?? `Type ${counter}`,
      description: opts.description ?? '',
      isVr: opts.isVr ?? false,
    })
    .returning();
  return row;
}

export async function createSeat(
  ctx: Ctx,
  opts: {
    locationId: number;
    typeId: number;
    name?: string;
    costCents?: number;
    active?: boolean;
    sortOrder?: number;
  },
) {
  counter += 1;
  const [row] = await ctx.db
    .insert(calendars)
    .values({
      name: opts.name ?? `Sim ${counter}`,
      locationId: opts.locationId,
      typeId: opts.typeId,
      costCents: opts.costCents ?? 4500,
      active: opts.active ?? true,
      sortOrder: opts.sortOrder ?? counter,
    })
    .returning();
  return row;
}

/** A location with one seat type and `seats` seats (default 3) at `costCents` each. */
export async function createVenue(
  ctx: Ctx,
  opts: Parameters<typeof createLocation>[1] & { seats?: number; costCents?: number } = {},
) {
  const location = await createLocation(ctx, opts);
  const type = await createCalendarType(ctx, { name: 'Pro Cockpit' });
  const seats = [];
  for (let i = 0; i < (opts.seats ?? 3); i += 1) {
    seats.push(
      await createSeat(ctx, {
        locationId: location.id,
        typeId: type.id,
        name: `Sim ${i + 1}`,
        costCents: opts.costCents ?? 4500,
        sortOrder: i,
      }),
    );
  }
  return { location, type, seats };
}

/** A local date `days` ahead at the zone (tomorrow by default): its slots are all in the future. */
export function futureDate(days = 1, zone = 'America/Los_Angeles'): string {
  return DateTime.now().setZone(zone).plus({ days }).toISODate()!;
}

/** A fresh half-hour slot key of `day` at each call, from `fromHour` on (one per checkout). */
export function halfHourSlots(day: string, fromHour: number): () => string {
  let index = 0;
  return () => {
    const m = fromHour * 60 + 30 * index++;
    return `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}:${m % 60 ? '30' : '00'}`;
  };
}

/** The slot key `HH:mm` on a future date. */
export function futureSlot(hhmm = '18:00', days = 1, zone = 'America/Los_Angeles'): string {
  return `${futureDate(days, zone)}T${hhmm}`;
}
