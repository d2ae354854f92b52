import { and, eq, inArray } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Queryable } from '../plugins/payments/charge-card';
import { reservations } from '../db/schema/booking';
import { calendars, locations } from '../db/schema/venue';
import { daySlots, type LocationHours } from '../lib/slots';

/**
 * A lived-in planner for today at the first location: a racer on VR Rig 1 (paid) and a blackout
 * on VR Rig 2. The cockpits stay free for anyone trying the booking screens.
 */
export async function seedDemoBookings(
  tx: Queryable,
  opts: { locationId: number; racer: number; staff: number; now?: Date },
) {
  const [location] = await tx.select().from(locations).where(eq(locations.id, opts.locationId));
  const hours: LocationHours = {
    timezone: location.timezone,
    openingHours: location.openingHours,
    specialHours: location.specialHours,
  };
  const today = DateTime.fromJSDate(opts.now ?? new Date(), {
    zone: location.timezone,
  }).toISODate()!;
  const slots = daySlots(hours, today);
  if (slots.length < 8) return;
  const seats = await tx
    .select({ id: calendars.id, name: calendars.name, cost: calendars.costCents })
    .from(calendars)
    .where(
      and(eq(calendars.locationId, location.id), inArray(calendars.name, ['VR Rig 1', 'VR Rig 2'])),
    );
  const seat = (name: string) => seats.find((s) => s.name === name);
  const rig1 = seat('VR Rig 1');
  const rig2 = seat('VR Rig 2');
  if (!rig1 || !rig2) return;
  const at = (i: number) => ({ slot: slots[i].slot, time: new Date(slots[i].startMs) });
  await tx.insert(reservations).values([
    ...[4, 5].map((i) => ({
      calendarId: rig1.id,
      ...at(i),
      userId: opts.racer,
      paid: true,
      amountCents: 0,
      createdById: opts.racer,
    })),
    ...[2, 3].map((i) => ({
      calendarId: rig2.id,
      ...at(i),
      userId: null,
      isBlackout: true,
      notes: 'Headset cleaning',
      createdById: opts.staff,
    })),
  ]);
}
