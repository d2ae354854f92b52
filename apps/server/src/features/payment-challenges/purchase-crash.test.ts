import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { voucherPurchases, vouchers } from '../../db/schema/booking';
import { clubMemberships } from '../../db/schema/club';
import { charges, localCharges, localRefunds } from '../../db/schema/payments';
import { creditBalance } from '../../plugins/club-membership';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { startCrashingServer } from '../../test/crashing-server';

// The real server, killed (SIGKILL, by itself) between a voucher purchase's or a club
// enrolment's charge and its finish, then started again on the same database (decision 0100):
// its money repair at start finishes both, so every charge belongs to a voucher or a membership
// (or is refunded), nothing is charged twice, and the server answers.

let t: TestApp;
let dataDir: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  t = await createTestApp();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-purchase-crash-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const startServer = (crashAt?: 'charged') =>
  startCrashingServer({ databaseUrl: t.deps.database.url, dataDir, children, crashAt });

const send = (base: string, user: CreatedUser, url: string, body?: object) =>
  fetch(`${base}/api${url}`, {
    method: 'POST',
    headers: { ...bearer(user.token), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

/** Posts to a server set to die after the charge: no answer, killed. */
async function killedAfterCharge(user: CreatedUser, url: string, body: object) {
  const server = await startServer('charged');
  const answer = await send(server.base, user, url, body).then(
    (res) => `answered ${res.status}`,
    () => 'no answer',
  );
  expect(answer, url).toBe('no answer');
  // SIGKILL, or 128 + 9 as tsx's wrapper reports its child's.
  expect(['SIGKILL', 137]).toContain(await server.exited);
}

/** The provider's charges under our key (`{customer}:{key}`), and ours, and refunds of them. */
async function money(keyLike: string) {
  const atProvider = await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:${keyLike}`));
  const recorded = await t.db.select().from(charges).where(like(charges.idempotencyKey, keyLike));
  const refunds = await t.db.select().from(localRefunds);
  return {
    succeeded: atProvider.filter((c) => c.status === 'succeeded'),
    recorded,
    refunded: refunds.filter((r) => atProvider.some((c) => c.id === r.chargeId)),
  };
}

describe('a server killed between a charge and its finish', () => {
  it('finishes the voucher purchase and the enrolment at its next start, each charged once', async () => {
    const buyer = await createUser(t);
    await saveTestCard(t, buyer);
    const joiner = await createUser(t);
    await saveTestCard(t, joiner);

    await killedAfterCharge(buyer, '/users/me/vouchers/purchase', {
      amount_cents: 2500,
      email_to: 'crash-friend@example.com',
      email_from_name: 'Sam',
    });
    const [purchase] = await t.db
      .select()
      .from(voucherPurchases)
      .where(eq(voucherPurchases.buyerId, buyer.id));
    // The worst moment: the money taken at the provider, the purchase not finished.
    expect(purchase.status).toBe('awaiting_authentication');
    expect((await money(`voucher-${purchase.code}`)).succeeded).toHaveLength(1);
    expect(await t.db.select().from(vouchers).where(eq(vouchers.code, purchase.code))).toEqual([]);

    await killedAfterCharge(joiner, '/users/me/charges/credits_enroll', { credits_amount: 1000 });
    const [pending] = await t.db
      .select()
      .from(clubMemberships)
      .where(eq(clubMemberships.userId, joiner.id));
    expect(pending.status).toBe('pending');
    expect((await money(`club-${pending.id}-%`)).succeeded).toHaveLength(1);
    expect(await creditBalance(t.db, joiner.id)).toBe(0);

    const server = await startServer();
    try {
      for (let i = 0; ; i++) {
        const [p] = await t.db
          .select()
          .from(voucherPurchases)
          .where(eq(voucherPurchases.id, purchase.id));
        const [m] = await t.db
          .select()
          .from(clubMemberships)
          .where(eq(clubMemberships.id, pending.id));
        if (p.status === 'paid' && m.status === 'active') break;
        if (i > 600) throw new Error(`not finished: purchase ${p.status}, membership ${m.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }

      const bought = await money(`voucher-${purchase.code}`);
      expect(bought.succeeded).toHaveLength(1);
      expect(bought.recorded).toMatchObject([{ errors: '', chargeRef: bought.succeeded[0].id }]);
      expect(bought.refunded).toEqual([]);
      expect(
        await t.db.select().from(vouchers).where(eq(vouchers.code, purchase.code)),
      ).toHaveLength(1);

      const joined = await money(`club-${pending.id}-%`);
      expect(joined.succeeded).toHaveLength(1);
      expect(joined.recorded).toMatchObject([{ errors: '', chargeRef: joined.succeeded[0].id }]);
      expect(await creditBalance(t.db, joiner.id)).toBe(1000);

      // The server answers, and the customers' retries change nothing.
      const retry = await send(
        server.base,
        buyer,
        `/users/me/vouchers/purchases/${purchase.id}/complete`,
      );
      expect(retry.status).toBe(200);
      expect(await retry.json()).toMatchObject({ code: purchase.code, amount_cents: 2500 });
      const again = await send(
        server.base,
        joiner,
        `/users/me/subscriptions/${pending.id}/complete`,
      );
      expect(again.status).toBe(200);
      expect((await money(`voucher-${purchase.code}`)).succeeded).toHaveLength(1);
      expect((await money(`club-${pending.id}-%`)).succeeded).toHaveLength(1);
      expect(await creditBalance(t.db, joiner.id)).toBe(1000);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 240_000);
});
