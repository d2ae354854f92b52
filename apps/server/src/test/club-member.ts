import { expect } from 'vitest';
import { saveTestCard } from './cards';
import { bearer, createUser, type CreatedUser } from './factories';
import type { TestApp } from './test-app';

/** A new customer with a test card, enrolled in the club with `credits` a month. */
export async function clubMember(
  t: TestApp,
  credits = 1000,
): Promise<{ user: CreatedUser; subscriptionId: number }> {
  const user = await createUser(t);
  await saveTestCard(t, user);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/me/charges/credits_enroll',
    headers: bearer(user.token),
    payload: { credits_amount: credits },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { user, subscriptionId: res.json().subscription.id as number };
}
