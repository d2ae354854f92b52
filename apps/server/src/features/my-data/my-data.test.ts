import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { cutAtAudit } from '../../test/cut-at-audit';
import { receiptsSent } from '../../test/sent-mail';
import { users } from '../../db/schema/accounts';
import { auditEvents } from '../../db/schema/audit';
import { reservations } from '../../db/schema/booking';
import { refunds } from '../../db/schema/refunds';
import { settings } from '../../db/schema/content';
import { cars, laps, tracks } from '../../db/schema/laps';

// Decision 0124: the customer's data in their hands. Export, deletion, and what is left after.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let manager: CreatedUser;
let reporter: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 3 });
  manager = await createUser(t, {
    isStaff: true,
    permissions: ['user.change_user', 'reservations.change_reservation'],
  });
  reporter = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

let seq = 0;
/** A customer with unmistakable personal values, a paid booking `days` ahead at a fresh hour. */
async function customerWithBooking(days: number) {
  seq += 1;
  const customer = await createUser(t, {
    email: `zebulon.${seq}.quixote@example.org`,
    firstName: `Zebulon${seq}`,
    lastName: `Quixotic${seq}`,
  });
  await t.db
    .update(users)
    .set({ contactPhone: `+44 7700 90${seq}123`, racerName: `ZQ Flash ${seq}` })
    .where(eq(users.id, customer.id));
  await saveTestCard(t, customer);
  const quote = await call('POST', '/api/reservations/checkouts/quote', customer, {
    reservations: [{ calendar: venue.seats[0].id, slot: `${futureDate(days)}T${10 + seq}:00` }],
  });
  const paid = await call(
    'POST',
    `/api/reservations/checkouts/${quote.json().checkout_id}/process`,
    customer,
  );
  expect(paid.statusCode).toBe(200);
  const personal = [
    customer.email,
    `Zebulon${seq}`,
    `Quixotic${seq}`,
    `7700 90${seq}123`,
    `ZQ Flash ${seq}`,
  ];
  return { customer, personal, bookingId: paid.json().reservations[0].id as number };
}

/** Every text, character and JSON column of every table holding any of `values`. */
async function columnsHolding(values: string[]): Promise<string[]> {
  const { rows: columns } = await t.db.execute<{ table_name: string; column_name: string }>(sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public'
      and data_type in ('text', 'character varying', 'character', 'json', 'jsonb')`);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    const col = sql`${sql.identifier(table_name)}.${sql.identifier(column_name)}::text`;
    const any = sql.join(
      values.map((v) => sql`strpos(lower(${col}), lower(${v})) > 0`),
      sql` or `,
    );
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${any}`,
    );
    if (rows[0].n > 0) found.push(`${table_name}.${column_name}`);
  }
  return found;
}

const reportOf = async (from: string, to: string) => {
  const res = await call(
    'GET',
    `/api/reports?location=${venue.location.id}&from=${from}&to=${to}`,
    reporter,
  );
  expect(res.statusCode).toBe(200);
  const r = res.json();
  return { revenue: r.revenue_total, takings: r.takings_by_method };
};

describe('Download my data', () => {
  it('holds the profile, bookings, payments and mails; only the person or staff (audited)', async () => {
    const { customer, personal, bookingId } = await customerWithBooking(4);
    await receiptsSent(t);
    const res = await call('GET', '/api/users/me/my_data', customer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d+-/);
    const data = res.json();
    expect(data.format).toBe('paddock-my-data-1');
    expect(data.profile).toMatchObject({ email: customer.email, first_name: personal[1] });
    expect(data.profile).not.toHaveProperty('password_hash');
    expect(data.bookings.map((b: { id: number }) => b.id)).toContain(bookingId);
    expect(data.payments.length).toBeGreaterThanOrEqual(1);
    expect(data.saved_card[0]).toMatchObject({ last4: '4242' });
    expect(data.mails.length).toBeGreaterThanOrEqual(1);
    expect(data.settings).toEqual({ visit_reminders: true });
    expect(data.summary.join('\n')).toContain('Bookings: 1 booking, 1 still ahead.');
    // Staff with the customer-account permission: the same file, and an audit row.
    const byStaff = await call('GET', `/api/users/${customer.id}/my_data`, manager);
    expect(byStaff.statusCode).toBe(200);
    expect(byStaff.json().profile.email).toBe(customer.email);
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'user.export_data'), eq(auditEvents.targetId, customer.id)),
      );
    expect(audited).toHaveLength(1);
    expect(audited[0].actorId).toBe(manager.id);
    // Another customer, or staff without the permission: as if it did not exist.
    const other = await createUser(t);
    expect((await call('GET', `/api/users/${customer.id}/my_data`, other)).statusCode).toBe(404);
    expect((await call('GET', `/api/users/${customer.id}/my_data`, reporter)).statusCode).toBe(404);
    expect(
      (await call('GET', `/api/users/${customer.id}/deletion_preview`, other)).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/api/users/${customer.id}/delete_account`, other, {})).statusCode,
    ).toBe(404);
  });
});

describe('Delete my account', () => {
  it('states the refund first, cancels through the cancel path, leaves no personal field', async () => {
    const { customer, personal, bookingId } = await customerWithBooking(3);
    await receiptsSent(t);
    // A past paid visit: its money stays in the reports.
    const past = await call('POST', '/api/reservations', manager, {
      calendar: venue.seats[1].id,
      slot: `${futureDate(-2)}T12:00`,
      user: customer.id,
      paid: true,
    });
    expect(past.statusCode).toBe(201);
    const before = await reportOf(futureDate(-5), futureDate(-1));

    const preview = await call('GET', '/api/users/me/deletion_preview', customer);
    expect(preview.statusCode).toBe(200);
    const p = preview.json();
    expect(p.bookings).toHaveLength(1);
    expect(p.bookings[0]).toMatchObject({ reservation: bookingId, free: true });
    const quote = await call('GET', `/api/reservations/${bookingId}/cancel_quote`, customer);
    expect(p.bookings[0].refund).toEqual(quote.json().refund);
    expect(p.refund_total_cents).toBe(quote.json().refund.total_cents);
    expect(p.refund_total_cents).toBeGreaterThan(0);
    expect(p.statements[0]).toMatch(/^Your 1 future booking is cancelled .*: \$[\d.]+ comes back/);

    // The password confirms it.
    const missing = await call('POST', '/api/users/me/delete_account', customer, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ current_password: ['Enter your current password.'] });
    const wrong = await call('POST', '/api/users/me/delete_account', customer, {
      current_password: 'not-it',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().current_password).toEqual(['Your current password is not correct.']);
    const done = await call('POST', '/api/users/me/delete_account', customer, {
      current_password: customer.password,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ detail: 'Your account is deleted.' });

    // The booking went through the cancel path: cancelled, refunded what the preview said.
    const [booking] = await t.db.select().from(reservations).where(eq(reservations.id, bookingId));
    expect(booking.cancelledAt).toBeInstanceOf(Date);
    const given = await t.db.select().from(refunds).where(eq(refunds.reservationId, bookingId));
    expect(given).toHaveLength(1);
    expect(given[0].paidCents - given[0].keptCents).toBe(p.refund_total_cents);
    // No personal value of theirs is left in any column of any table (before the login tried below: a failed login counts its name for 15 minutes).
    expect((await columnsHolding(personal)).join(', ')).toBe('');
    // Sessions are over and the login fails.
    expect((await call('GET', '/api/users/me', customer)).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { username: customer.email, password: customer.password },
    });
    expect(login.statusCode).toBe(401);
    // The past visit's money is still in the reports, to the cent.
    expect(await reportOf(futureDate(-5), futureDate(-1))).toEqual(before);
    const [row] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(row).toMatchObject({ username: `deleted-user-${customer.id}`, isActive: false });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.delete'), eq(auditEvents.targetId, customer.id)));
    expect(audit).toMatchObject({ actorId: customer.id, after: { anonymised: true, by: 'own' } });
  });

  it('a crash at the last step leaves the account whole; the retry finishes, refunding once', async () => {
    const { customer, bookingId } = await customerWithBooking(5);
    const cut = await cutAtAudit(t.deps.database.url, 'user.delete');
    try {
      const crashed = await call('DELETE', `/api/users/${customer.id}`, manager);
      // The connection died under the last write: a 503, and nothing of that step stays.
      expect(crashed.statusCode).toBe(503);
    } finally {
      await cut.close();
    }
    // The bookings' step is whole (cancelled and refunded); the account is untouched.
    const [row] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(row).toMatchObject({ email: customer.email, deletedAt: null, isActive: true });
    expect(
      await t.db.select().from(refunds).where(eq(refunds.reservationId, bookingId)),
    ).toHaveLength(1);
    const again = await call('DELETE', `/api/users/${customer.id}`, manager);
    expect(again.statusCode).toBe(204);
    expect(
      await t.db.select().from(refunds).where(eq(refunds.reservationId, bookingId)),
    ).toHaveLength(1);
    const [gone] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(gone.email).toBe('');
    const trail = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.delete'), eq(auditEvents.targetId, customer.id)));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      actorId: manager.id,
      after: { anonymised: true, by: 'staff' },
    });
  });
});

describe("a deleted customer's laps", () => {
  /** A customer with one valid lap on a fresh track, deleted by staff under `rule`. */
  async function deletedWithLap(rule: 'remove' | 'deleted_driver') {
    await t.db
      .insert(settings)
      .values({ key: 'deleted_driver_laps', value: rule })
      .onConflictDoUpdate({ target: settings.key, set: { value: rule } });
    const customer = await createUser(t, { firstName: 'Lapper', lastName: rule });
    const [track] = await t.db
      .insert(tracks)
      .values({ sim: 'ac', key: `track-${rule}`, name: `Track ${rule}` })
      .returning();
    const [car] = await t.db
      .insert(cars)
      .values({ sim: 'ac', key: `car-${rule}`, name: `Car ${rule}` })
      .returning();
    await t.db.insert(laps).values({
      userId: customer.id,
      trackId: track.id,
      carId: car.id,
      sim: 'ac',
      lapMs: 90_000,
      driverName: `Lapper ${rule}`,
      driverGuid: `7656-${rule}`,
      recordedAt: new Date(),
      sourceKey: `test:${rule}`,
      valid: true,
    });
    expect((await call('DELETE', `/api/users/${customer.id}`, manager)).statusCode).toBe(204);
    return { customer, track };
  }
  const lapsOn = async (track: number) =>
    (await call('GET', `/api/laps?track=${track}`, lapsStaff)).json().results as {
      display_name: string;
    }[];
  let lapsStaff: CreatedUser;
  beforeAll(async () => {
    lapsStaff = await createUser(t, { isStaff: true, permissions: ['laps.change_lap'] });
  });

  it('leave the boards when the venue says so', async () => {
    const { customer, track } = await deletedWithLap('remove');
    expect(await t.db.select().from(laps).where(eq(laps.userId, customer.id))).toEqual([]);
    expect(await lapsOn(track.id)).toEqual([]);
  });

  it('or stay as "Deleted driver", with no name or sim id of theirs', async () => {
    const { customer, track } = await deletedWithLap('deleted_driver');
    const [lap] = await t.db.select().from(laps).where(eq(laps.userId, customer.id));
    expect(lap).toMatchObject({ driverName: 'Deleted driver', driverGuid: '' });
    expect((await lapsOn(track.id)).map((l) => l.display_name)).toEqual(['Deleted driver']);
  });
});
