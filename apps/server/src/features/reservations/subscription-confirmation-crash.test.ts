import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import { receiptsOwed, reservations } from '../../db/schema/booking';
import { outboxMessages } from '../../db/schema/content';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer } from '../../test/factories';
import { clubMember } from '../../test/club-member';
import { createVenue, futureDate } from '../../test/booking-factories';
import { startCrashingServer } from '../../test/crashing-server';

// The real server, killed (SIGKILL, by itself) after a booking on club credit commits and before
// its confirmation is sent or answered (decision 0102): started again on the same database, it
// sends the confirmation the booking owes, once.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 1, costCents: 2500 });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-crash-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('a server killed after a booking on club credit commits', () => {
  it('sends its confirmation after the restart, once', async () => {
    const { user, subscriptionId } = await clubMember(t);
    const mailsTo = () =>
      t.db
        .select()
        .from(outboxMessages)
        .where(
          and(eq(outboxMessages.to, user.email), like(outboxMessages.subject, '%is confirmed')),
        );

    const crashing = await startCrashingServer({ databaseUrl: t.deps.database.url, dataDir, children, crashAt: 'booked' });
    const answer = await fetch(`${crashing.base}/api/reservations`, {
      method: 'POST',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      body: JSON.stringify({
        calendar: venue.seats[0].id,
        slot: `${futureDate(9)}T19:00`,
        subscription: subscriptionId,
      }),
    }).then(
      (res) => `answered ${res.status}`,
      () => 'no answer',
    );
    expect(answer).toBe('no answer');
    // SIGKILL, or 128 + 9 as tsx's wrapper reports its child's.
    expect(['SIGKILL', 137]).toContain(await crashing.exited);
    const booked = await t.db
      .select()
      .from(reservations)
      .where(and(eq(reservations.userId, user.id), isNull(reservations.cancelledAt)));
    expect(booked.map((r) => r.paid)).toEqual([true]);
    const owed = sql`(${receiptsOwed.facts} ->> 'userId')::int = ${user.id}`;
    expect(await t.db.select().from(receiptsOwed).where(owed)).toHaveLength(1);
    expect(await mailsTo()).toEqual([]);

    const server = await startCrashingServer({ databaseUrl: t.deps.database.url, dataDir, children });
    try {
      for (let i = 0; (await t.db.select().from(receiptsOwed).where(owed)).length > 0; i++) {
        if (i > 300) throw new Error('the confirmation is still owed after the restart');
        await new Promise((r) => setTimeout(r, 100));
      }
      const mails = await mailsTo();
      expect(mails.map((m) => m.subject)).toEqual([
        `Your booking at ${venue.location.name} is confirmed`,
      ]);
      expect(mails[0].text).toContain(`Reservation #${booked[0].id}`);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    // Nothing more is sent by the restarted server's later passes.
    expect(await mailsTo()).toHaveLength(1);
  }, 120_000);
});
