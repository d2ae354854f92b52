// `npm run seed:chain` (scripts/seed-chain.mjs): the server's own configuration and database
// opening (migrations applied), then the chain (src/seed/chain.ts) on it if it is empty.
import { DateTime } from 'luxon';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { CHAIN_SUPERUSER, ChainRefused, chainPlan, seedChain } from '../seed/chain';

async function main() {
  const scale = Number(process.env.SEED_CHAIN_SCALE ?? 1);
  if (!(scale > 0 && scale <= 1))
    throw new ConfigError(
      'SEED_CHAIN_SCALE must be a number above 0 and at most 1 (1: the full chain).',
    );
  const today = process.env.SEED_CHAIN_TODAY ?? DateTime.utc().toISODate()!;
  if (!DateTime.fromISO(today).isValid)
    throw new ConfigError('SEED_CHAIN_TODAY must be a date, YYYY-MM-DD.');
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    attach: true,
  });
  try {
    const plan = chainPlan(scale, today);
    const seats = plan.seatsPerPlace.reduce((a, b) => a + b, 0);
    console.log(
      `Seeding a chain at scale ${scale}: 50 locations, ${seats} seats, ${plan.customers} customers, ` +
        `5 years to ${today}, ${plan.laps} laps.`,
    );
    const started = performance.now();
    const counts = await seedChain(database.pool, plan, (line) => console.log(line));
    console.log(
      Object.entries(counts)
        .map(([t, n]) => `${t} ${n}`)
        .join(', '),
    );
    console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    console.log(`Superuser ${CHAIN_SUPERUSER.email} / ${CHAIN_SUPERUSER.password}`);
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof ChainRefused) {
      console.error(error.message);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  },
);
