import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { connect, type Database } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { auditEvents } from '../../db/schema/audit';
import { createTestApp, failOnError, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';
import { anonymiseInactive } from './inactive-customers';
import type { DeletionContext } from './delete-account';

// Decision 0124: customers inactive for `inactive_customer_years` are anonymised by the nightly
// pass, once across instances (two pools on the same database stand for two instances), never
// one with a booking ahead or a live membership; 0 years (the default) anonymises nobody.

let t: TestApp;
let other: Database;
let a: DeletionContext;
let b: DeletionContext;
let venue: Awaited<ReturnType<typeof createVenue>>;
let manager: CreatedUser;

beforeAll(async () => {
  t = await createTestApp();
  other = connect(t.deps.database.url, 3);
  venue = await createVenue(t, { seats: 1 });
  manager = await createUser(t, {
    isStaff: true,
    permissions: ['venue.change_settings', 'reservations.change_reservation'],
  });
  const base = {
    payments: t.deps.payments,
    mailer: t.deps.mailer,
    publicUrl: t.deps.config.publicUrl,
    logError: failOnError,
  };
  a = { ...base, db: t.db };
  b = { ...base, db: other.db };
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const YEAR = 365.25 * 86_400_000;
const yearsAgo = (n: number) => new Date(Date.now() - n * YEAR);

async function customerLastSeen(years: number) {
  const user = await createUser(t);
  await t.db
    .update(users)
    .set({ createdAt: yearsAgo(years + 1), lastLogin: yearsAgo(years) })
    .where(eq(users.id, user.id));
  return user;
}

const setYears = async (years: number) => {
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/settings',
    headers: bearer(manager.token),
    payload: { inactive_customer_years: years },
  });
  expect(res.statusCode).toBe(200);
};

describe('the inactive customers pass', () => {
  it('anonymises those inactive N years, once across two instances, never one with a booking ahead', async () => {
    const gone = await customerLastSeen(6);
    const recent = await customerLastSeen(1);
    const booked = await customerLastSeen(6);
    const ahead = await t.app.inject({
      method: 'POST',
      url: '/api/reservations',
      headers: bearer(manager.token),
      payload: { calendar: venue.seats[0].id, slot: `${futureDate(2)}T12:00`, user: booked.id },
    });
    expect(ahead.statusCode).toBe(201);

    // Off by default: nobody.
    expect(await anonymiseInactive(a)).toEqual([]);
    await setYears(5);
    const [first, second] = await Promise.all([anonymiseInactive(a), anonymiseInactive(b)]);
    // One pass did the work; the other found the lock taken (null) or nobody left ([]).
    const ids = [...(first ?? []), ...(second ?? [])];
    expect(ids).toContain(gone.id);
    expect(ids).not.toContain(recent.id);
    expect(ids).not.toContain(booked.id);
    expect(ids.filter((id) => id === gone.id)).toHaveLength(1);
    const rows = await t.db
      .select({ id: users.id, email: users.email, deletedAt: users.deletedAt })
      .from(users)
      .where(inArray(users.id, [gone.id, recent.id, booked.id]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(gone.id)).toMatchObject({ email: '' });
    expect(byId.get(gone.id)?.deletedAt).toBeInstanceOf(Date);
    expect(byId.get(recent.id)).toMatchObject({ email: recent.email, deletedAt: null });
    expect(byId.get(booked.id)).toMatchObject({ email: booked.email, deletedAt: null });
    const trail = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.delete'), eq(auditEvents.targetId, gone.id)));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ actorId: null, after: { anonymised: true, by: 'inactive' } });
    // The next night: nobody new.
    expect(await anonymiseInactive(b)).toEqual([]);
  });
});
