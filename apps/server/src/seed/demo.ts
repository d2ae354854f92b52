import { count, inArray, sql } from 'drizzle-orm';
import type { Permission } from '@paddock/contract/accounts';
import { PERMISSIONS } from '@paddock/contract/accounts';
import type { Db } from '../db/client';
import { userPermissions, users } from '../db/schema/accounts';
import { pages, settings } from '../db/schema/content';
import { seedDemoRaces } from './demo-races';
import { calendarTypes, calendars, locations, type OpeningHours } from '../db/schema/venue';
import { hashPassword, randomPassword, verifyPassword } from '../lib/passwords';
import { seedDemoLaps } from './demo-laps';
import { seedDemoBookings } from './demo-bookings';

export type SeedResult = { logins: { role: string; username: string; password: string }[] };

// Any number taken by pg_advisory_xact_lock; two instances starting at once seed only once.
const SEED_LOCK = 7_240_001;

/** Weekdays noon to 23:00; weekends 10:00 to 01:00 the next morning. */
const OPENING_HOURS: OpeningHours = {
  '1': [{ open: '12:00', close: '23:00' }],
  '2': [{ open: '12:00', close: '23:00' }],
  '3': [{ open: '12:00', close: '23:00' }],
  '4': [{ open: '12:00', close: '23:00' }],
  '5': [{ open: '12:00', close: '23:00' }],
  '6': [{ open: '10:00', close: '01:00' }],
  '7': [{ open: '10:00', close: '01:00' }],
};

const ABOUT_HTML = `<h2>Welcome to Paddock</h2>
<p>Paddock runs two sim-racing centres: <strong>Paddock Downtown</strong> in Los Angeles and
<strong>Paddock Brighton</strong> on the English coast.</p>
<h3>What we have</h3>
<ul>
  <li>Pro Cockpits: direct-drive wheels, load-cell pedals and triple screens.</li>
  <li>VR Rigs: the same cockpit with a headset (book two hours or more).</li>
</ul>
<p>Book a seat online, join the club for cheaper races, and chase the leaderboards.</p>`;

const HOUSE_RULES_HTML = `<h2>House Rules</h2>
<ol>
  <li>Arrive 10 minutes before your session for the safety briefing.</li>
  <li>Closed shoes only in the cockpits.</li>
  <li>No food or drinks at the rigs.</li>
  <li>Racers under 16 need an adult with them.</li>
</ol>
<table>
  <thead><tr><th>Session</th><th>Length</th></tr></thead>
  <tbody>
    <tr><td>Standard</td><td>30 minutes</td></tr>
    <tr><td>VR</td><td>2 hours minimum</td></tr>
  </tbody>
</table>`;

type DemoUser = {
  role: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  racerName: string;
  flagCode: string;
  location: 'downtown' | 'brighton';
  isStaff?: boolean;
  isSuperuser?: boolean;
  permissions?: readonly Permission[];
};

const DEMO_USERS: DemoUser[] = [
  {
    role: 'Superuser',
    email: 'admin@paddock.local',
    password: 'paddock-admin',
    firstName: 'Ada',
    lastName: 'Admin',
    racerName: '',
    flagCode: 'us',
    location: 'downtown',
    isStaff: true,
    isSuperuser: true,
  },
  {
    role: 'Staff',
    email: 'staff@paddock.local',
    password: 'paddock-staff',
    firstName: 'Sam',
    lastName: 'Marshal',
    racerName: '',
    flagCode: 'us',
    location: 'downtown',
    isStaff: true,
    permissions: PERMISSIONS,
  },
  {
    role: 'Customer',
    email: 'alice@paddock.local',
    password: 'paddock-demo',
    firstName: 'Alice',
    lastName: 'Apex',
    racerName: 'Alice Apex',
    flagCode: 'us',
    location: 'downtown',
  },
  {
    role: 'Customer',
    email: 'bob@paddock.local',
    password: 'paddock-demo',
    firstName: 'Bob',
    lastName: 'Brakes',
    racerName: 'LateBraker',
    flagCode: 'gb',
    location: 'brighton',
  },
];

/**
 * A demo venue on an empty database: two locations in different time zones, a dozen seats,
 * two custom pages and four accounts. Does nothing (returns null) once any user exists.
 */
export async function seedDemoVenue(
  db: Db,
  opts: { randomPasswords?: boolean } = {},
): Promise<SeedResult | null> {
  // A seeded database (every start after the first) needs no password hashing: ask first.
  const [{ n: existing }] = await db.select({ n: count() }).from(users);
  if (existing > 0) return null;
  // On a real database the well-known demo passwords would be a way in: make fresh ones.
  const passwords = DEMO_USERS.map((u) => (opts.randomPasswords ? randomPassword() : u.password));
  // Hashing is slow; do it before taking the lock.
  const hashes = await Promise.all(passwords.map((p) => hashPassword(p)));
  const racerHash = await hashPassword(randomPassword());
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [{ n }] = await tx.select({ n: count() }).from(users);
    if (n > 0) return null;

    const [downtown, brighton] = await tx
      .insert(locations)
      .values([
        {
          name: 'Paddock Downtown',
          timezone: 'America/Los_Angeles',
          address: '100 S Grand Ave, Los Angeles, CA 90012',
          salesTaxRatePercent: '8.875',
          bookingFeeCents: 200,
          bookingFeesThreshold: 4,
          openingHours: OPENING_HOURS,
        },
        {
          name: 'Paddock Brighton',
          timezone: 'Europe/London',
          currency: 'GBP',
          address: '1 Madeira Drive, Brighton BN2 1PS',
          salesTaxRatePercent: '20',
          bookingFeeCents: 100,
          bookingFeesThreshold: 4,
          openingHours: OPENING_HOURS,
        },
      ])
      .returning({ id: locations.id });

    const [cockpit, vr] = await tx
      .insert(calendarTypes)
      .values([
        {
          name: 'Pro Cockpit',
          description: 'Direct-drive wheel, load-cell pedals, triple 32" screens.',
        },
        {
          name: 'VR Rig',
          description: 'Pro Cockpit with a VR headset. Minimum booking 2 hours.',
          isVr: true,
          minMinutes: 120,
        },
      ])
      .returning({ id: calendarTypes.id });

    const seats = (
      locationId: number,
      typeId: number,
      prefix: string,
      n: number,
      costCents: number,
      first = 0,
    ) =>
      Array.from({ length: n }, (_, i) => ({
        name: `${prefix} ${i + 1}`,
        typeId,
        locationId,
        costCents,
        costUnit: '30 minutes',
        sortOrder: first + i,
      }));
    await tx
      .insert(calendars)
      .values([
        ...seats(downtown.id, cockpit.id, 'Cockpit', 5, 2500),
        ...seats(downtown.id, vr.id, 'VR Rig', 2, 3500, 5),
        ...seats(brighton.id, cockpit.id, 'Cockpit', 4, 2000),
        ...seats(brighton.id, vr.id, 'VR Rig', 1, 3000, 4),
      ]);

    // The demo shows free seats before signing up, and its widget (decision 0123).
    await tx.insert(settings).values({ key: 'public_availability', value: true });
    await tx.insert(pages).values([
      { name: 'About Paddock', menuName: 'About', content: ABOUT_HTML },
      { name: 'House Rules', menuName: '', content: HOUSE_RULES_HTML },
    ]);

    const locationIds = { downtown: downtown.id, brighton: brighton.id };
    const inserted = await tx
      .insert(users)
      .values(
        DEMO_USERS.map((u, i) => ({
          username: u.email,
          email: u.email,
          passwordHash: hashes[i],
          isOnboarded: true,
          isStaff: u.isStaff ?? false,
          isSuperuser: u.isSuperuser ?? false,
          firstName: u.firstName,
          lastName: u.lastName,
          racerName: u.racerName,
          flagCode: u.flagCode,
          contactPhone: u.location === 'downtown' ? '+1 213 555 0100' : '+44 1273 555 010',
          zipCode: u.location === 'downtown' ? '90012' : 'BN2 1PS',
          locationId: locationIds[u.location],
        })),
      )
      .returning({ id: users.id });
    const grants = DEMO_USERS.flatMap((u, i) =>
      (u.permissions ?? []).map((permission) => ({ userId: inserted[i].id, permission })),
    );
    if (grants.length) await tx.insert(userPermissions).values(grants);

    const customers = inserted.filter((_, i) => !DEMO_USERS[i].isStaff).map((u) => u.id);
    const [firstSeat] = await tx.select({ id: calendars.id }).from(calendars).limit(1);
    await seedDemoBookings(tx, {
      locationId: downtown.id,
      racer: customers[0],
      staff: inserted[DEMO_USERS.findIndex((u) => u.isStaff && !u.isSuperuser)].id,
    });
    await seedDemoLaps(tx, {
      racers: customers,
      seat: firstSeat.id,
      passwordHash: racerHash,
    });
    await seedDemoRaces(tx, { locationId: downtown.id });

    return {
      logins: DEMO_USERS.map((u, i) => ({
        role: u.role,
        username: u.email,
        password: passwords[i],
      })),
    };
  });
}

/** The demo accounts that still exist with their demo password, to print at every start. */
export async function demoLogins(db: Db): Promise<SeedResult['logins']> {
  const rows = await db
    .select({ email: users.email, hash: users.passwordHash })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_USERS.map((u) => u.email),
      ),
    );
  const valid = await Promise.all(
    DEMO_USERS.map(async (u) => {
      const row = rows.find((r) => r.email === u.email);
      return row !== undefined && (await verifyPassword(row.hash, u.password));
    }),
  );
  return DEMO_USERS.filter((_, i) => valid[i]).map((u) => ({
    role: u.role,
    username: u.email,
    password: u.password,
  }));
}
