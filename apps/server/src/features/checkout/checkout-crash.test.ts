import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, like } from 'drizzle-orm';
import { checkouts, reservations } from '../../db/schema/booking';
import { charges, localCharges, localRefunds } from '../../db/schema/payments';
import { CHECKOUT_CRASH_POINTS, type CrashPoint } from '../../lib/crash-point';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { repairCheckouts } from './money-repair';
import { startCrashingServer } from '../../test/crashing-server';

// The real server, killed (SIGKILL, by itself) at each step of a checkout, then started again on
// the same database: its money repair at start ends every checkout the crash left, and every
// charge belongs to paid bookings or is refunded (issue 27, decision 0072).

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let dataDir: string;
const children: ChildProcess[] = [];
const zone = 'America/Los_Angeles';
const day = futureDate(5, zone);
let half = 0;
const nextSlot = () => {
  const m = 9 * 60 + 30 * half++;
  return `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}:${m % 60 ? '30' : '00'}`;
};

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2, costCents: 3000 });
  staff = await createUser(t, { isStaff: true, permissions: ['vouchers.add_voucher'] });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-crash-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** `npm start`'s server on the test database; `crashAt` makes it kill itself at that step. */
const startServer = (crashAt?: CrashPoint) =>
  startCrashingServer({ databaseUrl: t.deps.database.url, dataDir, children, crashAt });

async function quote(user: CreatedUser, voucher?: string): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/reservations/checkouts/quote',
    headers: bearer(user.token),
    payload: {
      reservations: [
        { calendar: venue.seats[0].id, slot: nextSlot() },
        { calendar: venue.seats[1].id, slot: nextSlot() },
      ],
      ...(voucher ? { voucher } : {}),
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json().checkout_id;
}

async function voucher(amountCents: number): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/vouchers',
    headers: bearer(staff.token),
    payload: { amount_cents: amountCents },
  });
  return res.json().code;
}

/** What the money of these checkouts looks like: compared before and after a second repair. */
async function snapshot(ids: number[]) {
  return {
    checkouts: await t.db
      .select({ id: checkouts.id, status: checkouts.status, result: checkouts.result })
      .from(checkouts)
      .where(inArray(checkouts.id, ids))
      .orderBy(checkouts.id),
    bookings: await t.db
      .select()
      .from(reservations)
      .where(inArray(reservations.checkoutId, ids))
      .orderBy(reservations.id),
    charges: await t.db.select().from(charges).orderBy(charges.id),
    atProvider: await t.db.select().from(localCharges).orderBy(localCharges.id),
    refunds: await t.db.select().from(localRefunds).orderBy(localRefunds.id),
  };
}

/** Every charge belongs to paid bookings or is refunded; no key charged twice; no seat lost. */
async function assertMoneyWhole(id: number) {
  const [checkout] = await t.db.select().from(checkouts).where(eq(checkouts.id, id));
  const bookings = await t.db.select().from(reservations).where(eq(reservations.checkoutId, id));
  const atProvider = await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:checkout-${id}`));
  const recorded = await t.db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, `checkout-${id}`));
  expect(checkout.status, `checkout ${id}`).toBe('paid');
  expect(atProvider, 'one charge at the provider').toHaveLength(1);
  expect(atProvider[0].status).toBe('succeeded');
  expect(atProvider[0].amountCents).toBe(checkout.amounts.totalCents);
  expect(recorded.map((c) => c.chargeRef)).toEqual([atProvider[0].id]);
  expect(bookings).toHaveLength(checkout.items.length);
  for (const booking of bookings) {
    expect(booking.cancelledAt).toBeNull();
    expect([booking.paid, booking.chargeId]).toEqual([true, recorded[0].id]);
  }
  // Nothing else charged this customer (a capture of the "outstanding" bookings, say).
  const others = await t.db.select().from(charges).where(eq(charges.userId, checkout.userId));
  expect(others.map((c) => c.idempotencyKey)).toEqual([`checkout-${id}`]);
}

type PaidWith = 'card' | 'voucher and card';

describe('a server killed at each step of a checkout', () => {
  it('is repaired at its next start: each checkout ends once, every charge pays its bookings', async () => {
    const cases: { point: CrashPoint; paid: PaidWith; user: CreatedUser; id: number }[] = [];
    for (const point of CHECKOUT_CRASH_POINTS)
      for (const paid of ['card', 'voucher and card'] as const) {
        const user = await createUser(t);
        await saveTestCard(t, user);
        // A voucher that pays part is redeemed in the claim: a crash must not lose or repeat it.
        const id = await quote(user, paid === 'voucher and card' ? await voucher(1000) : undefined);
        cases.push({ point, paid, user, id });
      }

    for (const c of cases) {
      const server = await startServer(c.point);
      const answer = await fetch(`${server.base}/api/reservations/checkouts/${c.id}/process`, {
        method: 'POST',
        headers: bearer(c.user.token),
      }).then(
        (res) => `answered ${res.status}`,
        () => 'no answer',
      );
      expect(answer, `${c.point}, paid with ${c.paid}`).toBe('no answer');
      // SIGKILL, or 128 + 9 as tsx's wrapper reports its child's.
      expect(['SIGKILL', 137]).toContain(await server.exited);
      const [left] = await t.db.select().from(checkouts).where(eq(checkouts.id, c.id));
      expect(left.status, `${c.point}, paid with ${c.paid}`).toBe(
        c.point === 'finished' ? 'paid' : 'charging',
      );
    }

    const ids = cases.map((c) => c.id);
    const server = await startServer();
    try {
      for (let i = 0; ; i++) {
        const stuck = (await snapshot(ids)).checkouts.filter((c) => c.status === 'charging');
        if (stuck.length === 0) break;
        if (i > 600) throw new Error(`still claimed: ${stuck.map((c) => c.id).join(', ')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const c of cases) await assertMoneyWhole(c.id);

      // A second instance repairing meanwhile (and again) changes nothing more.
      const before = await snapshot(ids);
      const ctx = {
        db: t.db,
        payments: t.deps.payments,
        mailer: t.deps.mailer,
        receipts: { wake: () => {} },
        publicUrl: t.deps.config.publicUrl,
        logError: (error: unknown) => {
          throw error;
        },
      };
      const reports = await Promise.all([
        repairCheckouts(ctx, { afterMs: 0 }),
        repairCheckouts(ctx, { afterMs: 0 }),
      ]);
      expect(reports.map((r) => r.finished)).toEqual([0, 0]);
      expect(await snapshot(ids)).toEqual(before);

      // The customer's retry after the crash replays the stored answer, charging nothing.
      for (const c of cases) {
        const retry = await fetch(`${server.base}/api/reservations/checkouts/${c.id}/process`, {
          method: 'POST',
          headers: bearer(c.user.token),
        });
        expect(retry.status).toBe(200);
        const body = (await retry.json()) as { reservations: { paid: boolean }[] };
        expect(body.reservations.map((r) => r.paid)).toEqual([true, true]);
      }
      expect(await snapshot(ids)).toEqual(before);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 240_000);
});
