import { users } from '../db/schema/accounts';
import {
  boards,
  carGroupMembers,
  carGroups,
  cars,
  laps,
  raceResults,
  raceSessions,
  tracks,
  type Sim,
} from '../db/schema/laps';
import type { Queryable } from '../plugins/payments/charge-card';
import { refreshPersonalBest } from '../features/laps/laps.repo';

/** Real Assetto Corsa and ACC content keys and names (the fixtures' ones among them). */
export const TRACKS: {
  sim: Sim;
  key: string;
  layout: string;
  name: string;
  country: string;
  lengthM: number;
}[] = [
  {
    sim: 'ac',
    key: 'monza',
    layout: 'full course',
    name: 'Monza',
    country: 'Italy',
    lengthM: 5793,
  },
  {
    sim: 'ac',
    key: 'ks_nurburgring',
    layout: 'layout_gp_a',
    name: 'Nürburgring GP',
    country: 'Germany',
    lengthM: 5148,
  },
  {
    sim: 'ac',
    key: 'spa',
    layout: '',
    name: 'Spa-Francorchamps',
    country: 'Belgium',
    lengthM: 7004,
  },
  {
    sim: 'ac',
    key: 'ks_brands_hatch',
    layout: 'gp',
    name: 'Brands Hatch GP',
    country: 'United Kingdom',
    lengthM: 3908,
  },
  {
    sim: 'acc',
    key: 'brands_hatch',
    layout: '',
    name: 'Brands Hatch (ACC)',
    country: 'United Kingdom',
    lengthM: 3908,
  },
];
export const GROUPS = ['GT3', 'GT4', 'Road', 'Formula', 'Cup'];
export const CARS: {
  sim: Sim;
  key: string;
  name: string;
  brand: string;
  carClass: string;
  groups: string[];
}[] = [
  {
    sim: 'ac',
    key: 'ks_audi_r8_lms',
    name: 'Audi R8 LMS',
    brand: 'Audi',
    carClass: 'GT3',
    groups: ['GT3'],
  },
  {
    sim: 'ac',
    key: 'ks_porsche_911_gt3_r_2016',
    name: 'Porsche 911 GT3 R 2016',
    brand: 'Porsche',
    carClass: 'GT3',
    groups: ['GT3'],
  },
  {
    sim: 'ac',
    key: 'ks_ferrari_488_gt3',
    name: 'Ferrari 488 GT3',
    brand: 'Ferrari',
    carClass: 'GT3',
    groups: ['GT3'],
  },
  {
    sim: 'ac',
    key: 'ks_maserati_gt_mc_gt4',
    name: 'Maserati GranTurismo MC GT4',
    brand: 'Maserati',
    carClass: 'GT4',
    groups: ['GT4'],
  },
  {
    sim: 'ac',
    key: 'ks_mazda_mx5_cup',
    name: 'Mazda MX-5 Cup',
    brand: 'Mazda',
    carClass: 'Cup',
    groups: ['Road', 'Cup'],
  },
  {
    sim: 'ac',
    key: 'lotus_exos_125',
    name: 'Lotus Exos 125',
    brand: 'Lotus',
    carClass: 'Formula',
    groups: ['Formula'],
  },
  {
    sim: 'acc',
    key: 'mercedes_amg_gt3',
    name: 'Mercedes-AMG GT3',
    brand: 'Mercedes-AMG',
    carClass: 'GT3',
    groups: ['GT3'],
  },
  {
    sim: 'acc',
    key: 'audi_r8_lms',
    name: 'Audi R8 LMS',
    brand: 'Audi',
    carClass: 'GT3',
    groups: ['GT3'],
  },
];

/** Racers of the demo board besides the demo customers (no logins: random passwords). */
export const DEMO_RACERS = [
  { first: 'Lena', last: 'Vogel', racer: 'LateApex', flag: 'de' },
  { first: 'Marco', last: 'Rossi', racer: 'Slipstream', flag: 'it' },
  { first: 'Chloé', last: 'Martin', racer: 'Chicane', flag: 'fr' },
  { first: 'Kenji', last: 'Sato', racer: 'KS Drift', flag: 'jp' },
];

/** A small deterministic random source, so every demo venue looks the same. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/**
 * Catalogue, boards and a few weeks of laps for the demo venue: `racers` are user ids, `seat`
 * the seat their laps were driven on.
 */
export async function seedDemoLaps(
  tx: Queryable,
  opts: { racers: number[]; seat: number; passwordHash: string; now?: Date },
) {
  const now = opts.now ?? new Date();
  const trackRows = await tx
    .insert(tracks)
    .values(TRACKS)
    .returning({ id: tracks.id, key: tracks.key });
  const groupRows = await tx
    .insert(carGroups)
    .values(GROUPS.map((name) => ({ name })))
    .returning();
  const carRows = await tx
    .insert(cars)
    .values(CARS.map(({ groups: _groups, ...c }) => c))
    .returning({ id: cars.id, key: cars.key });
  const groupId = (name: string) => groupRows.find((g) => g.name === name)!.id;
  await tx
    .insert(carGroupMembers)
    .values(
      CARS.flatMap((c, i) => c.groups.map((g) => ({ carId: carRows[i].id, groupId: groupId(g) }))),
    );
  const extra = await tx
    .insert(users)
    .values(
      DEMO_RACERS.map((r, i) => ({
        username: `racer${i + 1}@paddock.local`,
        email: `racer${i + 1}@paddock.local`,
        passwordHash: opts.passwordHash,
        isOnboarded: true,
        firstName: r.first,
        lastName: r.last,
        racerName: r.racer,
        flagCode: r.flag,
        socialInstagram: i % 2 === 0 ? r.racer.toLowerCase().replace(/\s+/g, '') : '',
      })),
    )
    .returning({ id: users.id });
  const racers = [...opts.racers, ...extra.map((e) => e.id)];

  const monza = trackRows.find((t) => t.key === 'monza')!.id;
  const nurburgring = trackRows.find((t) => t.key === 'ks_nurburgring')!.id;
  const carId = (key: string) => carRows.find((c) => c.key === key)!.id;
  const plan = [
    {
      track: monza,
      base: 107_500,
      cars: ['ks_audi_r8_lms', 'ks_porsche_911_gt3_r_2016', 'ks_ferrari_488_gt3'],
    },
    { track: monza, base: 118_000, cars: ['ks_maserati_gt_mc_gt4'] },
    { track: nurburgring, base: 114_000, cars: ['ks_audi_r8_lms', 'ks_porsche_911_gt3_r_2016'] },
  ];
  const next = random(42);
  const rows: (typeof laps.$inferInsert)[] = [];
  racers.forEach((userId, r) => {
    for (const p of plan) {
      const skill = 1 + r * 0.004 + next() * 0.01;
      for (let i = 0; i < 8; i++) {
        const cuts = next() < 0.15 ? 1 + Math.floor(next() * 3) : 0;
        const car = p.cars[Math.floor(next() * p.cars.length)];
        rows.push({
          userId,
          calendarId: opts.seat,
          trackId: p.track,
          carId: carId(car),
          sim: 'ac',
          lapMs: Math.round(p.base * skill + next() * 2500),
          sectorsMs: [],
          cuts,
          tyre: 'Slick Medium',
          fuel: 20 + Math.round(next() * 40),
          ballastKg: 0,
          recordedAt: new Date(now.getTime() - Math.floor(next() * 21 * 86_400_000)),
          sourceKey: `demo:${userId}:${p.track}:${p.base}:${i}`,
          valid: cuts === 0,
          invalidReason: cuts ? `Track limits: ${cuts} cut${cuts === 1 ? '' : 's'}` : '',
        });
      }
    }
  });
  await tx.insert(laps).values(rows);
  const keys = new Set(rows.map((r) => `${r.userId}|${r.trackId}|${r.carId}`));
  for (const key of keys) {
    const [u, t, c] = key.split('|').map(Number);
    await refreshPersonalBest(tx, u, t, c);
  }

  // Three club races at Monza for the POINTS board (finishing orders made up, results real-shaped).
  const gt3Car = carId('ks_audi_r8_lms');
  for (let round = 0; round < 3; round++) {
    const [session] = await tx
      .insert(raceSessions)
      .values({
        fileSha: `demo-round-${round + 1}`,
        sessionKey: `demo-round-${round + 1}`,
        sim: 'ac',
        trackId: monza,
        kind: 'RACE',
        serverName: `Paddock Club Race ${round + 1}`,
        importedAt: new Date(now.getTime() - (3 - round) * 7 * 86_400_000),
      })
      .returning({ id: raceSessions.id });
    const order = [...racers].sort(() => next() - 0.5);
    await tx.insert(raceResults).values(
      order.map((userId, i) => ({
        sessionId: session.id,
        position: i + 1,
        userId,
        driverName: `Racer ${userId}`,
        carId: gt3Car,
        bestLapMs: 108_000 + i * 350,
        totalMs: 1_100_000 + i * 4_000,
        laps: 10,
        fastestLap: i === 0,
      })),
    );
  }

  await tx.insert(boards).values([
    {
      name: 'Monza GT3 — All Time',
      calculation: 'TIME',
      description:
        '<p>The fastest GT3 lap around Monza by each racer. Beat the top three to make the podium.</p>',
      trackId: monza,
      groupId: groupId('GT3'),
      sortOrder: 1,
    },
    {
      name: 'Monza — This Week',
      calculation: 'TIME',
      description: '<p>Any car, the last seven days.</p>',
      trackId: monza,
      timeFrameDays: 7,
      sortOrder: 2,
    },
    {
      name: 'Nürburgring GT3',
      calculation: 'TIME',
      description: '<p>The GP layout in a GT3 car.</p>',
      trackId: nurburgring,
      groupId: groupId('GT3'),
      sortOrder: 3,
    },
    {
      name: 'Club Championship',
      calculation: 'POINTS',
      description: '<p>Points from the monthly races: 25-18-15-12-10-8-6-4-2-1.</p>',
      sortOrder: 4,
    },
  ]);
}
