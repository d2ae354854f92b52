// What the event's ids stand for on a dedicated server (docs/decisions/0031, 0122): its track's
// and cars' folders and names, skins, each seat's driver (the entry's, else the customer booked
// on the seat now) and the Steam account each seat's PC plays on.
import { eq, inArray } from 'drizzle-orm';
import type { RaceEvent } from '@paddock/contract/races';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { cars, skins, tracks } from '../../db/schema/laps';
import { calendars } from '../../db/schema/venue';
import { lapOwner } from '../laps/catalog-upkeep';
import type { ServerRaceLookups } from './server-race';

const STEAM64 = /^\d{17}$/;

export async function serverLookups(db: Db, event: RaceEvent): Promise<ServerRaceLookups> {
  const [track] = event.track
    ? await db
        .select({ key: tracks.key, layout: tracks.layout })
        .from(tracks)
        .where(eq(tracks.id, event.track))
    : [];
  const carRows = event.cars.length
    ? await db
        .select({ id: cars.id, key: cars.key, name: cars.name })
        .from(cars)
        .where(inArray(cars.id, event.cars))
    : [];
  const skinIds = event.entries.flatMap((e) => (e.skin === null ? [] : [e.skin]));
  const skinRows = skinIds.length
    ? await db
        .select({ id: skins.id, key: skins.key })
        .from(skins)
        .where(inArray(skins.id, skinIds))
    : [];
  // The seat's driver: the entry's, else the customer booked on the seat now.
  const now = new Date();
  const drivers: ServerRaceLookups['drivers'] = {};
  for (const e of event.entries) {
    const userId =
      e.user ?? (await lapOwner(db, { calendarId: e.calendar, recordedAt: now, guid: '' }));
    if (userId === null) continue;
    const [u] = await db
      .select({
        racerName: users.racerName,
        firstName: users.firstName,
        lastName: users.lastName,
        simGuid: users.simGuid,
      })
      .from(users)
      .where(eq(users.id, userId));
    if (!u) continue;
    drivers[e.calendar] = {
      name: u.racerName || `${u.firstName} ${u.lastName}`.trim(),
      guid: u.simGuid && STEAM64.test(u.simGuid) ? u.simGuid : '',
    };
  }
  // The Steam account each seat's PC plays on: who ACC sees at that seat, whoever drives.
  const seatIds = event.entries.map((e) => e.calendar);
  const steamRows = seatIds.length
    ? await db
        .select({ id: calendars.id, steamId: calendars.steamId })
        .from(calendars)
        .where(inArray(calendars.id, seatIds))
    : [];
  const seatSteamIds: Record<number, string> = {};
  for (const r of steamRows) if (r.steamId) seatSteamIds[r.id] = r.steamId;
  return {
    track: track ?? null,
    cars: Object.fromEntries(carRows.map((c) => [c.id, c.key])),
    carNames: Object.fromEntries(carRows.map((c) => [c.id, c.name])),
    skins: Object.fromEntries(skinRows.map((s) => [s.id, s.key])),
    drivers,
    seatSteamIds,
  };
}
