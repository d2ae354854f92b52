import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { reservations } from '../db/schema/booking';
import { createVenue } from './booking-factories';
import { createUser, type CreatedUser } from './factories';
import { userPost } from './requests';
import type { TestApp } from './test-app';

// What the tests of a cancel during 3-D Secure share (issue 40, decision 0114), with the local
// provider or the Stripe stand-in: the venue, a desk member, and a checkout left waiting for
// the customer's challenge.

/** A venue of `seats` $30.00 seats and a staff member who may cancel and refund at the desk. */
export async function cancelDuringChallengeVenue(t: TestApp, seats: number) {
  const venue = await createVenue(t, { seats, costCents: 3000 });
  const staff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation', 'user.change_user'],
  });
  return { venue, staff };
}

/**
 * `user` (whose saved card asks for 3-D Secure) books `calendars` at `slot` and presses pay: the
 * checkout waits in its challenge, its seats booked unpaid. Answers it, its first booking and
 * the challenge's page.
 */
export async function waitingCheckout(
  t: TestApp,
  user: CreatedUser,
  calendars: number[],
  slot: string,
) {
  const post = userPost(() => t);
  const q = await post(user, '/api/reservations/checkouts/quote', {
    reservations: calendars.map((calendar) => ({ calendar, slot })),
  });
  expect(q.statusCode, q.body).toBe(200);
  const id = q.json().checkout_id as number;
  const res = await post(user, `/api/reservations/checkouts/${id}/process`);
  expect(res.json()).toMatchObject({ status: 'awaiting_authentication' });
  const [booking] = await t.db.select().from(reservations).where(eq(reservations.checkoutId, id));
  return { id, booking, url: res.json().challenge_url as string };
}
