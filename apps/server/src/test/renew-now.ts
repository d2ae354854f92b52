// Journeys only (apps/web/e2e/club-renewal-3ds.spec.ts): beside a running journey server on
// the embedded database (its DATA_DIR and PUBLIC_URL in the environment), makes one member's
// renewal due (since yesterday) and runs the renewal pass the server's hourly job runs. Never part of the
// server: `tsx src/test/renew-now.ts USER_ID`.
import { and, eq, inArray } from 'drizzle-orm';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { clubMemberships } from '../db/schema/club';
import { localDate } from '../features/club/billing-cycle';
import { venueTimezone } from '../features/club/club.repo';
import { runRenewals } from '../features/club/renewals';
import { createMailer } from '../plugins/mail';
import { createPaymentProvider } from '../plugins/payments/create-provider';

async function main(userId: number) {
  if (!Number.isSafeInteger(userId)) throw new Error('Usage: tsx src/test/renew-now.ts USER_ID');
  const config = loadConfig();
  const database = await openDatabase({ dataDir: config.dataDir, migrate: false, attach: true });
  try {
    const db = database.db;
    // Due since yesterday: today's date is the enrolment's own charge key (`club-{id}-{date}`).
    const zone = await venueTimezone(db);
    const yesterday = localDate(new Date(Date.now() - 24 * 3600 * 1000), zone);
    const due = await db
      .update(clubMemberships)
      .set({ nextChargeOn: yesterday })
      .where(
        and(
          eq(clubMemberships.userId, userId),
          inArray(clubMemberships.status, ['active', 'past_due']),
        ),
      )
      .returning({ id: clubMemberships.id });
    if (due.length !== 1) throw new Error(`user ${userId} has no live membership`);
    const report = await runRenewals({
      db,
      payments: await createPaymentProvider(config, db),
      mail: {
        mailer: createMailer({ from: config.mailFrom, dataDir: config.dataDir, db }),
        publicUrl: config.publicUrl,
        logError: (error) => console.error(error),
      },
    });
    console.log(JSON.stringify(report));
  } finally {
    await database.close();
  }
}

main(Number(process.argv[2])).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
