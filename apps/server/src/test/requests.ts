import { expect } from 'vitest';
import { bearer, type CreatedUser } from './factories';
import type { TestApp } from './test-app';

/**
 * A POST as `user` through the app: `post(user, url, payload?)`. The test app is read at each
 * call (`() => t`), as a test file makes it in its beforeAll.
 */
export const userPost =
  (app: () => TestApp) => (user: CreatedUser, url: string, payload?: object) =>
    app().app.inject({ method: 'POST', url, headers: bearer(user.token), payload });

/** `user` books `items` and pays with their saved card, through the checkout's two calls. */
export async function bookAndPay(
  t: TestApp,
  user: CreatedUser,
  items: { calendar: number; slot: string }[],
) {
  const headers = bearer(user.token);
  const quote = await t.app.inject({
    method: 'POST',
    url: '/api/reservations/checkouts/quote',
    headers,
    payload: { reservations: items },
  });
  expect(quote.statusCode, quote.body).toBe(200);
  const done = await t.app.inject({
    method: 'POST',
    url: `/api/reservations/checkouts/${quote.json().checkout_id}/process`,
    headers,
  });
  expect(done.statusCode, done.body).toBe(200);
}

/** Polls `url` on `app` until `check` holds for an answer (every 10 ms, `ms` at most). */
export async function answerUntil(
  app: TestApp['app'],
  url: string,
  check: (res: { statusCode: number; json: () => unknown }) => boolean,
  ms = 5000,
) {
  const end = Date.now() + ms;
  for (;;) {
    const res = await app.inject({ url });
    if (check(res)) return res;
    if (Date.now() > end)
      throw new Error(`no such answer from ${url}: last ${res.statusCode} ${res.body}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
